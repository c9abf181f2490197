import { describe, expect, it } from "vitest";
import { planQuery } from "../search/plan.ts";
import { ADMIN_FORMS, LEVEL_WORDS, NameTable } from "./table.ts";
import { shippedTable } from "./testing.ts";

describe("name table (src/wilayah/names/table.ts)", () => {
  it("ADMIN_FORMS are the words the search planner reads as level hints", () => {
    for (const form of ADMIN_FORMS) expect(planQuery(`${form} garut`).units[0].hint, form).toBeDefined();
    expect(planQuery("tg garut").units[0].hint).toBeUndefined();
  });

  it("looks entries up by their words; the shipped table has the issue's short forms", () => {
    expect(shippedTable.get("tg")).toEqual({ typed: "tg", reads: "tanjung", kind: "generic" });
    expect(shippedTable.get("sby")).toMatchObject({ reads: "surabaya", kind: "abbreviation", id: "35.78" });
    expect(shippedTable.get("fort de kock")).toMatchObject({ reads: "kota bukittinggi", kind: "historic", id: "13.75" });
    expect(shippedTable.maxWords).toBe(3);
    expect(new NameTable([]).maxWords).toBe(1);
  });

  it("generic entries reading as a level word are the planner's forms or old level names", () => {
    const levels = shippedTable.entries.filter((e) => LEVEL_WORDS.has(e.reads)).map((e) => e.typed);
    expect(levels.filter((t) => !ADMIN_FORMS.has(t)).sort()).toEqual(["kodya", "kotamadya"]);
  });
});
