import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { seededMemoryDb } from "../../test/node/seeded-db.ts";
import { pulledCorrections } from "../corrections-pull.ts";
import { d1, root, SEED_DIR, sqlString, toolEnv } from "../lib.ts";
import { applyMigrations } from "../migrate.ts";
import {
  applyCorrections,
  CORRECTIONS_HEADER,
  type Correction,
  correctionsCsv,
  correctionsSql,
  mergeCorrections,
  parseCorrections,
  readCorrections,
} from "./corrections.ts";
import type { Row } from "./region-sql.ts";

const row = (r: Partial<Row> & Pick<Row, "id" | "level" | "name">): Row => ({
  altName: r.name,
  parentId: null,
  isActive: 1,
  aliases: [],
  former: [],
  lat: null,
  lng: null,
  postalCode: null,
  ...r,
});

/** A small seed: a kabupaten, a kecamatan, a village. */
const smallSeed = () => [
  row({ id: "32.73", level: "kabupaten", name: "Kota Bandung", altName: "Bandung", type: "kota", parentId: "32" }),
  row({ id: "32.73.09", level: "kecamatan", name: "Bandung Wetan", parentId: "32.73", lat: -6.9, lng: 107.62 }),
  row({ id: "32.73.09.1001", level: "kelurahan", name: "Cihapit", parentId: "32.73.09", postalCode: "40114", lat: -6.91, lng: 107.62 }),
];

const c = (reportId: string, regionCode: string, field: string, value: string, acceptedAt = "2026-11-28T01:00:00.000Z"): Correction => ({
  reportId,
  regionCode,
  field,
  value,
  basis: "Perwal Bandung 1/2026",
  acceptedAt,
});

describe("seed/corrections.csv", () => {
  it("the committed file has exactly the header (and so far no correction)", () => {
    const text = readFileSync(join(root, "seed", "corrections.csv"), "utf8");
    expect(text.split("\r\n")[0]).toBe("report_id,region_code,field,value,basis,accepted_at");
    expect(CORRECTIONS_HEADER.join(",")).toBe("report_id,region_code,field,value,basis,accepted_at");
    expect(readCorrections(SEED_DIR)).toEqual([]);
  });

  it("round-trips through its CSV (quotes, commas, line breaks), refuses another header and a row without a basis", () => {
    const rows = [
      c("rpt_a", "32.73.09", "coordinates", "-6.9,107.6"),
      { ...c("rpt_b", "32.73", "name", 'Kota "Kembang", Bandung'), basis: "Line one\nline two" },
    ];
    expect(parseCorrections(correctionsCsv(rows))).toEqual(rows);
    expect(() => parseCorrections("report,region\r\n")).toThrow(/header must be exactly/);
    expect(() => parseCorrections(`${CORRECTIONS_HEADER.join(",")}\r\nrpt_a,32.73,name,X,,2026\r\n`)).toThrow(/needs its basis/);
    expect(() => parseCorrections(`${CORRECTIONS_HEADER.join(",")}\r\nrpt_a,32.73,name\r\n`)).toThrow(/line 2: 3 fields/);
  });

  it("a value with an invisible character or not in NFC stops the pull (naming the report), the file's reading and the build (naming the line)", () => {
    const row = { id: "rpt_zw", region_id: "32.73.19.1001", field: "name", value: "Cihapit\u200b\u2060", basis: "x", reviewed_at: 0 };
    expect(() => pulledCorrections([row])).toThrow(/report rpt_zw: .*U\+200B/);
    expect(() => pulledCorrections([{ ...row, value: "Cafe\u0301" }])).toThrow(/not in Unicode NFC/);
    const text = `${CORRECTIONS_HEADER.join(",")}\r\nrpt_zw,32.73.19.1001,name,Cihapit\u2060,Perwal,2026-01-01T00:00:00.000Z\r\n`;
    expect(() => parseCorrections(text)).toThrow(/line 2: rpt_zw's value holds the invisible character U\+2060/);
    const rows = [{ id: "32.73.19.1001", level: "kelurahan", name: "Cihapit", altName: "Cihapit", former: [] }] as unknown as Row[];
    expect(() => applyCorrections(rows, [{ ...c("rpt_zw", "32.73.19.1001", "name", "Cihapit\u200b") }])).toThrow(/U\+200B/);
  });

  it("a pull keeps what the file held and adds the newly accepted reports, once each, in order of acceptance", () => {
    const old = [c("rpt_old", "32.73", "name", "Kota Bandung", "2026-01-01T00:00:00.000Z")];
    const pulled = pulledCorrections([
      {
        id: "rpt_new",
        region_id: "32.73.09.1001",
        field: "postal_code",
        value: "40115",
        basis: "Pos Indonesia",
        reviewed_at: Date.parse("2026-11-28T03:00:00Z"),
      },
      {
        id: "rpt_old",
        region_id: "32.73",
        field: "name",
        value: "Kota Bandung",
        basis: "Perwal Bandung 1/2026",
        reviewed_at: Date.parse("2026-01-01T00:00:00Z"),
      },
    ]);
    const merged = mergeCorrections(old, pulled);
    expect(merged.map((x) => x.reportId)).toEqual(["rpt_old", "rpt_new"]);
    expect(merged[1]).toEqual({
      reportId: "rpt_new",
      regionCode: "32.73.09.1001",
      field: "postal_code",
      value: "40115",
      basis: "Pos Indonesia",
      acceptedAt: "2026-11-28T03:00:00.000Z",
    });
    expect(mergeCorrections(merged, pulled)).toEqual(merged);
  });
});

describe("the seed build's apply step", () => {
  it("applies name, postal code and coordinates over the sources; lists the other fields as not applied", () => {
    const rows = smallSeed();
    const { applied, skipped } = applyCorrections(rows, [
      c("rpt_name", "32.73", "name", "Kota Bandung Raya"),
      c("rpt_postal", "32.73.09.1001", "postal_code", "40115"),
      c("rpt_coords", "32.73.09", "coordinates", "-6.905, 107.625"),
      c("rpt_parent", "32.73.09.1001", "parent", "32.73.10"),
      c("rpt_boundary", "32.73.09", "boundary", "see the map"),
    ]);
    const [kab, kec, kel] = rows;
    expect(kab).toMatchObject({ name: "Kota Bandung Raya", altName: "Bandung Raya", former: ["Kota Bandung"] });
    expect(kel.postalCode).toBe("40115");
    expect(kec).toMatchObject({ lat: -6.905, lng: 107.625 });
    expect(applied.map((a) => [a.reportId, a.level, a.valueBefore])).toEqual([
      ["rpt_name", 2, "Kota Bandung"],
      ["rpt_postal", 4, "40114"],
      ["rpt_coords", 3, "-6.9,107.62"],
    ]);
    expect(skipped.map((s) => s.reportId)).toEqual(["rpt_parent", "rpt_boundary"]);
    expect(skipped[0].why).toMatch(/not applied by the build/);
  });

  it("a correction to the value the data already holds (a second report of the same fix) changes nothing and is not listed", () => {
    const { applied, skipped } = applyCorrections(smallSeed(), [
      c("rpt_first", "32.73.09.1001", "postal_code", "40115"),
      c("rpt_again", "32.73.09.1001", "postal_code", "40115"),
      c("rpt_same_name", "32.73.09", "name", "Bandung Wetan"),
    ]);
    expect(applied.map((a) => a.reportId)).toEqual(["rpt_first"]);
    expect(skipped.map((s) => [s.reportId, s.why])).toEqual([
      ["rpt_again", expect.stringMatching(/already holds this value/)],
      ["rpt_same_name", expect.stringMatching(/already holds this value/)],
    ]);
  });

  it("stops on a correction it cannot apply (unknown region, postal code outside a village, a value out of shape)", () => {
    expect(() => applyCorrections(smallSeed(), [c("rpt_x", "32.73.99", "name", "X")])).toThrow(/no region 32.73.99/);
    expect(() => applyCorrections(smallSeed(), [c("rpt_x", "32.73", "postal_code", "40115")])).toThrow(/belong to kelurahan/);
    expect(() => applyCorrections(smallSeed(), [c("rpt_x", "32.73.09.1001", "postal_code", "4011")])).toThrow(/5-digit/);
    expect(() => applyCorrections(smallSeed(), [c("rpt_x", "32.73.09", "coordinates", "51.5,-0.1")])).toThrow(/inside Indonesia/);
  });

  it("seeds wilayah_corrections: the statements load into the migrated schema beside the region rows (emptied first)", () => {
    const rows = smallSeed();
    const { applied } = applyCorrections(rows, [c("rpt_postal", "32.73.09.1001", "postal_code", "40115"), c("rpt_name", "32.73", "name", "Kota Bandung Raya")]);
    const sql = correctionsSql(applied);
    expect(sql).toMatch(/^-- Corrections[^\n]*\nDELETE FROM wilayah_corrections;\n/);
    // the committed seed's kelurahan row of the village, then the corrections over it (as the build writes both)
    const db = seededMemoryDb((l) => l.startsWith("INSERT INTO kelurahan") && l.includes("'32.73.09.1001'"));
    db.exec(`${sql}UPDATE kelurahan SET postal_code = ${sqlString(rows[2].postalCode ?? "")} WHERE id = '32.73.09.1001';`);
    db.exec(sql); // loaded twice: the same state
    expect(
      db.prepare("SELECT report_id, region_id, level, field, value_before, value, basis, accepted_at FROM wilayah_corrections ORDER BY report_id").all(),
    ).toEqual([
      {
        report_id: "rpt_name",
        region_id: "32.73",
        level: 2,
        field: "name",
        value_before: "Kota Bandung",
        value: "Kota Bandung Raya",
        basis: "Perwal Bandung 1/2026",
        accepted_at: "2026-11-28T01:00:00.000Z",
      },
      {
        report_id: "rpt_postal",
        region_id: "32.73.09.1001",
        level: 4,
        field: "postal_code",
        value_before: "40114",
        value: "40115",
        basis: "Perwal Bandung 1/2026",
        accepted_at: "2026-11-28T01:00:00.000Z",
      },
    ]);
    expect(db.prepare("SELECT postal_code FROM kelurahan WHERE id = '32.73.09.1001'").get()).toEqual({ postal_code: "40115" });
    expect(correctionsSql([])).toBe(
      "-- Corrections from accepted reports: seed/corrections.csv (scripts/seed/corrections.ts). Do not edit.\nDELETE FROM wilayah_corrections;\n",
    );
  });
});

describe("npm run corrections:pull", () => {
  const state = mkdtempSync(join(tmpdir(), "wilayah-state-"));
  const seed = mkdtempSync(join(tmpdir(), "wilayah-seed-"));
  afterAll(() => {
    rmSync(state, { recursive: true, force: true });
    rmSync(seed, { recursive: true, force: true });
  });

  it("prints the accepted reports of the local D1 (WRANGLER_PERSIST_TO) that seed/corrections.csv lacks; with --write writes them into it, keeping what it held", () => {
    applyMigrations({ persistTo: state });
    const insert = (id: string, status: string, reviewedAt: number | null, accepted: string | null) =>
      `INSERT INTO reports (id, user_id, key_id, region_id, field, value, status, basis, accepted_value, created_at, reviewed_at) VALUES (${sqlString(id)}, 'user_x', 'portal', '32.73.09.1001', 'postal_code', ' 40115 ', ${sqlString(status)}, ${status === "accepted" ? "'Pos Indonesia, kodepos 2026'" : "NULL"}, ${accepted ? sqlString(accepted) : "NULL"}, 1, ${reviewedAt ?? "NULL"})`;
    d1(
      [
        insert("rpt_accepted1", "accepted", Date.parse("2026-11-28T04:00:00Z"), "40115"),
        insert("rpt_rejected1", "rejected", Date.parse("2026-11-28T04:10:00Z"), null),
        insert("rpt_open00001", "open", null, null),
      ].join(";"),
      { persistTo: state },
    );
    const held = correctionsCsv([c("rpt_earlier1", "32.73", "name", "Kota Bandung", "2026-01-01T00:00:00.000Z")]);
    writeFileSync(join(seed, "corrections.csv"), held);
    // The script as a developer runs it (npm run corrections:pull), pointed at the state and at a copy of the seed's folder.
    const pull = (...args: string[]) =>
      spawnSync(process.execPath, [join(root, "scripts", "corrections-pull.ts"), "--seed", seed, ...args], {
        cwd: root,
        env: { ...toolEnv, WRANGLER_PERSIST_TO: state },
        encoding: "utf8",
      });
    // As the walk-through runs it: what would be added, and the tracked file left as it was.
    const preview = pull();
    expect(preview.stderr).toBe("");
    expect(preview.status).toBe(0);
    expect(preview.stdout).toMatch(/rpt_accepted1: 32\.73\.09\.1001 postal_code = "40115"/);
    expect(preview.stdout).toMatch(/1 accepted reports of the local database are not in seed\/corrections\.csv yet\. Nothing was written/);
    expect(readFileSync(join(seed, "corrections.csv"), "utf8")).toBe(held);
    const r = pull("--write");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/2 corrections, 1 new from the local database\. This changed a file git tracks: .* git checkout -- seed\/corrections\.csv/);
    expect(parseCorrections(readFileSync(join(seed, "corrections.csv"), "utf8"))).toEqual([
      c("rpt_earlier1", "32.73", "name", "Kota Bandung", "2026-01-01T00:00:00.000Z"),
      {
        reportId: "rpt_accepted1",
        regionCode: "32.73.09.1001",
        field: "postal_code",
        value: "40115",
        basis: "Pos Indonesia, kodepos 2026",
        acceptedAt: "2026-11-28T04:00:00.000Z",
      },
    ]);
  }, 300_000);
});
