import { describe, expect, it } from "vitest";
import { NameTable, type NameTableJson } from "../../src/wilayah/names/table.ts";
import { loadNameTable, nameTableJson } from "./name-table.ts";

const HEADER = "typed,reads,kind,id,source";
const spellings = new Map([
  ["35.78", ["kota surabaya", "surabaya", "suroboyo"]],
  ["32.71", ["kota bogor", "bogor"]],
]);
const load = (...rows: string[]) => loadNameTable(spellings, new Set(["suroboyo"]), [HEADER, ...rows].join("\n"));

describe("seed/name-table.csv loader (scripts/seed/name-table.ts)", () => {
  it("reads generic, abbreviation and historic rows", () => {
    expect(load('tg,tanjung,generic,,"Tg. Priok"', "sby,surabaya,abbreviation,35.78,SNI", "buitenzorg,kota bogor,historic,32.71,colonial name", "")).toEqual([
      { typed: "tg", reads: "tanjung", kind: "generic", source: "Tg. Priok" },
      { typed: "sby", reads: "surabaya", kind: "abbreviation", id: "35.78", source: "SNI" },
      { typed: "buitenzorg", reads: "kota bogor", kind: "historic", id: "32.71", source: "colonial name" },
    ]);
  });

  it("refuses rows it cannot vouch for, naming the line", () => {
    const cases: [string, RegExp][] = [
      ["sby,surabaya,abbreviation,99.99,SNI", /line 2 .*unknown region id "99.99"/],
      ["sby,surabaya,,35.78,SNI", /kind must be one of/],
      ["sby,surabaya,short,35.78,SNI", /kind must be one of/],
      ["sby,surabaya,abbreviation,35.78,", /no source/],
      ["sby,surabaya,abbreviation,35.78,  ", /no source/],
      ["sby,surabaya,abbreviation,,SNI", /needs the id/],
      ["tg,tanjung,generic,35.78,x", /names no region/],
      ["sby,bandung,abbreviation,35.78,SNI", /none of the spellings of 35.78/],
      ["SBY,surabaya,abbreviation,35.78,SNI", /typed must be normalised/],
      ["tg.,tanjung,generic,,x", /typed must be normalised/],
      ["tg,Tanjung,generic,,x", /reads must be normalised/],
      ["suroboyo,surabaya,abbreviation,35.78,x", /already an alias/],
      ["tg,tanjung,generic,,x,extra", /too many columns/],
    ];
    for (const [row, why] of cases) expect(() => load(row), row).toThrow(why);
    expect(() => load("tg,tanjung,generic,,x", "tg,tanjung,generic,,y")).toThrow(/line 3 .*already in the table/);
    expect(() => loadNameTable(spellings, new Set(), "typed,reads,kind,source\n")).toThrow(/line 1/);
  });

  it("writes what the Worker reads (no sources), which the table reads back", () => {
    const rows = load('tg,tanjung,generic,,"Tg. Priok"', "sby,surabaya,abbreviation,35.78,SNI");
    const json = JSON.parse(nameTableJson(rows)) as NameTableJson;
    expect(json).toEqual({
      entries: [
        ["tg", "tanjung", "generic"],
        ["sby", "surabaya", "abbreviation", "35.78"],
      ],
    });
    expect(NameTable.fromJson(json).get("sby")).toEqual({ typed: "sby", reads: "surabaya", kind: "abbreviation", id: "35.78" });
  });
});
