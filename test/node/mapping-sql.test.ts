/**
 * The SQL code mapping file against a real database: the file of edition 2015 (every code, built by
 * the seed side's own code from the seed's history tables, scripts/seed/mapping.ts) loaded into
 * SQLite (node:sqlite) beside a small customer table keyed on 2015 codes, then the SQLite statements
 * docs/api.md prints in "Migrate your database" (read from the page, so the page and this test
 * cannot drift) run as printed: the review query lists the rows no statement can decide, the UPDATE
 * moves every code with one successor and leaves the others alone.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SEED_DIR } from "../../scripts/lib";
import { buildHistory, readCurrentNames } from "../../scripts/seed/history";
import { readHistoryInputs } from "../../scripts/seed/history-editions";
import { historyRows } from "../../scripts/seed/history-storage";
import { currentEdition, type MappingRow, mappingRows, renderMapping, SQL_BATCH } from "../../scripts/seed/mapping";

const root = join(import.meta.dirname, "..", "..");
const FROM = "2015";

/** The `sql` samples of docs/api.md that name SQLite among their dialects, in page order. */
function sqliteSamples(): string[] {
  const page = readFileSync(join(root, "docs", "api.md"), "utf8");
  return [...page.matchAll(/^```sql ([^\n]*)\n([\s\S]*?)^```$/gm)].filter((m) => m[1].split(" ").includes("sqlite")).map((m) => m[2].trim());
}

let rows: MappingRow[];
let sql: string;
let db: DatabaseSync;

// The files of a lane share its process (vitest.config.ts): the database goes with the file.
afterAll(() => db?.close());

beforeAll(() => {
  const names = readCurrentNames();
  const tables = historyRows(buildHistory(readHistoryInputs(SEED_DIR)), names);
  rows = mappingRows(tables, names, FROM);
  sql = renderMapping(rows, "sql", { from: FROM, to: currentEdition(tables), export_id: "test", data_version: "test", license: "test" });
  db = new DatabaseSync(":memory:");
  db.exec(sql);
}, 120_000); // builds the seed's records and every mapping file of the earlier editions

/** The first old code of a status (with one row, or several). */
const codeWith = (status: string) => rows.find((r) => r.status === status)?.old_code as string;
const rowsOf = (code: string) => rows.filter((r) => r.old_code === code);

describe("the SQL mapping file in SQLite", () => {
  it("creates wilayah_code_map and holds every row, in INSERTs of 500", () => {
    expect(db.prepare("SELECT count(*) AS n FROM wilayah_code_map").get()).toEqual({ n: rows.length });
    // every code of edition 2015: 34 provinsi, 514 kabupaten/kota, 7,160 kecamatan, 83,184 kelurahan/desa
    expect(db.prepare("SELECT count(DISTINCT old_code) AS n FROM wilayah_code_map").get()).toEqual({ n: 34 + 514 + 7_160 + 83_184 });
    expect(sql.split("\n").filter((l) => l.startsWith("INSERT INTO wilayah_code_map (old_code, new_code, status, basis, confidence) VALUES"))).toHaveLength(
      Math.ceil(rows.length / SQL_BATCH),
    );
    expect(db.prepare("SELECT old_code, new_code, status, basis, confidence FROM wilayah_code_map WHERE old_code = '91.01'").all()).toEqual([
      { old_code: "91.01", new_code: "93.01", status: "recoded", basis: "curated", confidence: 1 },
    ]);
    expect(db.prepare("SELECT new_code, basis, confidence FROM wilayah_code_map WHERE status = 'retired' AND new_code IS NOT NULL").all()).toEqual([]);
    const statuses = db.prepare("SELECT status, count(*) AS n FROM wilayah_code_map GROUP BY status ORDER BY status").all() as { status: string; n: number }[];
    expect(statuses.map((s) => s.status)).toEqual(["ambiguous", "merged", "recoded", "renamed", "retired", "same"]);
  });

  it("migrates a customer table with the statements docs/api.md prints", () => {
    const samples = sqliteSamples();
    const update = samples.filter((s) => s.startsWith("UPDATE"));
    const review = samples.filter((s) => s.startsWith("SELECT"));
    expect(update).toHaveLength(1);
    expect(review).toHaveLength(1);
    expect(samples).toHaveLength(2); // every SQLite statement of the page is run here

    const customers: [number, string][] = [
      [1, "91.01"], // recoded (Merauke, Papua Selatan 2022)
      [2, "91.01.01.2001"], // recoded (a village of Merauke)
      [3, codeWith("merged")],
      [4, codeWith("same")],
      [5, codeWith("renamed")],
      [6, codeWith("ambiguous")],
      [7, codeWith("retired")],
      [8, "32.73.99"], // no code of that edition
      [9, "91.01"], // the same old code twice
    ];
    db.exec("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, region_code TEXT)");
    const insert = db.prepare("INSERT INTO customers (id, name, region_code) VALUES (?, ?, ?)");
    for (const [id, code] of customers) insert.run(id, `customer ${id}`, code);

    // The review query: the ambiguous code's candidates (surest first) and the retired code, by customer.
    const listed = db.prepare(review[0]).all() as { id: number; region_code: string; status: string; new_code: string | null }[];
    expect(listed.map((r) => [r.id, r.status, r.new_code])).toEqual([
      ...rowsOf(customers[5][1]).map((r) => [6, "ambiguous", r.new_code]),
      [7, "retired", null],
    ]);
    expect(listed.filter((r) => r.id === 6).length).toBeGreaterThan(1);

    const before = new Map(customers);
    db.exec(update[0]);
    const after = new Map(
      (db.prepare("SELECT id, region_code FROM customers").all() as { id: number; region_code: string }[]).map((r) => [r.id, r.region_code]),
    );
    const only = (code: string) => {
      const list = rowsOf(code);
      expect(list).toHaveLength(1);
      return list[0].new_code;
    };
    expect(after.get(1)).toBe("93.01");
    expect(after.get(2)).toBe("93.01.01.2001");
    expect(after.get(3)).toBe(only(before.get(3)!));
    expect(after.get(3)).not.toBe(before.get(3));
    for (const id of [4, 5, 6, 7, 8]) expect(after.get(id), `customer ${id}`).toBe(before.get(id)); // kept, renamed, for review, retired, unknown
    expect(after.get(9)).toBe("93.01");
  });
});
