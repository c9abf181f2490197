/**
 * BPS codes on the whole seed: every row of seed/sources/wilayah-bps-crosswalk.csv answers
 * GET /wilayah/bps/{code} and POST /wilayah/convert (from bps) as the file says, through the very
 * services and SQL the API runs (src/wilayah/bps on a node:sqlite copy of seed/wilayah.sql, through
 * the D1 shim scripts/sqlite-d1.ts); every current region's by-id answer lists exactly the BPS codes
 * that lead to it, newest period first, in the one extra statement batched with the region read.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BPS_CROSSWALK, parseBpsCrosswalk } from "../../scripts/seed/bps";
import { type StatementRun, sqliteDb } from "../../scripts/sqlite-d1";
import { plainReads, type RegionReads } from "../../src/db/reads";
import { bpsCode, convertBps } from "../../src/wilayah/bps/service";
import { getRegion } from "../../src/wilayah/regions/service";
import { seededMemoryDb } from "./seeded-db.ts";

const root = join(import.meta.dirname, "..", "..");
const TABLES = /^INSERT INTO (provinsi|kabupaten|kecamatan|kelurahan|wilayah_bps) /;
const rows = parseBpsCrosswalk(readFileSync(join(root, "seed", "sources", BPS_CROSSWALK), "utf8"));

let db: DatabaseSync;
let runner: RegionReads;
let statements = 0;

// The files of a lane share its process (vitest.config.ts): the database goes with the file.
afterAll(() => db?.close());

beforeAll(() => {
  db = seededMemoryDb((l) => TABLES.test(l));
  runner = plainReads(
    sqliteDb(db, (_run: StatementRun) => statements++),
    "node-test",
  );
}, 180_000); // the seed's region and BPS tables into node:sqlite

describe("the crosswalk file, row by row", () => {
  it("has the rows and coverage its README states", () => {
    expect(rows).toHaveLength(92_539);
    expect(rows.filter((r) => !r.currentId)).toHaveLength(795);
    const regions = (level: string) => new Set(rows.filter((r) => r.level === level && r.currentId).map((r) => r.currentId)).size;
    // of edition 2025's 514 kabupaten/kota, 7,285 kecamatan and 83,762 kelurahan/desa
    expect([regions("kabupaten"), regions("kecamatan"), regions("kelurahan")]).toEqual([514, 7_284, 82_934]);
  });

  it("every BPS code answers GET /wilayah/bps/{code} as the file says, in one statement", async () => {
    const wrong: string[] = [];
    for (const r of rows) {
      statements = 0;
      const { data } = await bpsCode(runner, r.code);
      const ok =
        data.bps_code === r.code &&
        data.level === r.level &&
        data.period === r.period &&
        data.match === r.match &&
        data.bps_name === r.name &&
        data.kemendagri_name === r.kemendagriName &&
        JSON.stringify(data.kemendagri_codes) === JSON.stringify(r.kemendagriCodes) &&
        (data.current?.id ?? null) === r.currentId &&
        (r.currentId === null || (data.current?.level === r.level && data.current.name !== "")) &&
        statements === 1;
      if (!ok) wrong.push(`${r.code}: ${JSON.stringify(data)}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  }, 300_000); // every BPS code of the crosswalk file, asked one by one: the file row by row is the point

  it("POST /wilayah/convert from bps answers them all, 1,000 codes per statement", async () => {
    const wrong: string[] = [];
    for (let i = 0; i < rows.length; i += 1000) {
      const batch = rows.slice(i, i + 1000);
      statements = 0;
      const { data } = await convertBps(
        runner.db,
        batch.map((r) => r.code),
      );
      expect(statements).toBe(1);
      batch.forEach((r, j) => {
        const d = data[j];
        if (d.id !== r.code || d.status !== (r.currentId ? "current" : "unmapped") || (d.current?.id ?? null) !== r.currentId) wrong.push(r.code);
      });
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  }, 300_000); // every BPS code again, 1,000 a call

  it("every current region lists exactly the BPS codes leading to it, newest period first, in one batch of two statements", async () => {
    const want = new Map<string, { code: string; period: string }[]>();
    for (const r of rows) if (r.currentId) want.set(r.currentId, [...(want.get(r.currentId) ?? []), { code: r.code, period: r.period }]);
    for (const list of want.values()) list.sort((a, b) => (a.period !== b.period ? (a.period < b.period ? 1 : -1) : a.code < b.code ? -1 : 1));
    const ids = (
      db
        .prepare(
          "SELECT id FROM kabupaten WHERE is_active = 1 UNION ALL SELECT id FROM kecamatan WHERE is_active = 1 UNION ALL SELECT id FROM kelurahan WHERE is_active = 1",
        )
        .all() as { id: string }[]
    ).map((r) => r.id);
    const wrong: string[] = [];
    let maxStatements = 0;
    for (const id of ids) {
      statements = 0;
      const { data } = await getRegion(runner, id);
      maxStatements = Math.max(maxStatements, statements);
      if (JSON.stringify(data.bps_codes) !== JSON.stringify(want.get(id) ?? [])) wrong.push(id);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    expect(maxStatements).toBe(2);
  }, 300_000); // every current region's BPS codes
});
