import { describe, expect, it } from "vitest";
import { renameTables, seedTables, swapSql } from "./apply.ts";

describe("seed:apply", () => {
  const names = new Set(["kelurahan", "wilayah_edition", "provinsi", "pulau"]);

  it("renames tables, never columns named like them nor names of places", () => {
    expect(renameTables("INSERT INTO wilayah_edition (id, provinsi, kabupaten) VALUES ('2025', 38, 514);", names, "__next")).toBe(
      "INSERT INTO wilayah_edition__next (id, provinsi, kabupaten) VALUES ('2025', 38, 514);",
    );
    expect(renameTables("INSERT INTO pulau VALUES ('Pulau ''provinsi'' FROM pulau');", names, "__next")).toBe(
      "INSERT INTO pulau__next VALUES ('Pulau ''provinsi'' FROM pulau');",
    );
    expect(renameTables("SELECT count(*) FROM kelurahan k JOIN provinsi ON provinsi.id = k.provinsi_id WHERE kelurahan.is_active = 1", names, "__next")).toBe(
      "SELECT count(*) FROM kelurahan__next k JOIN provinsi__next ON provinsi__next.id = k.provinsi_id WHERE kelurahan__next.is_active = 1",
    );
    expect(renameTables("CREATE INDEX `kelurahan_parent_idx` ON `kelurahan` (`kecamatan_id`)", new Set(["kelurahan"]), "__next", "kelurahan_parent_idx")).toBe(
      "CREATE INDEX `kelurahan_parent_idx__next` ON `kelurahan__next` (`kecamatan_id`)",
    );
    expect(renameTables('CREATE VIRTUAL TABLE "wilayah_search" USING fts5(terms)', new Set(["wilayah_search"]), "__next")).toBe(
      'CREATE VIRTUAL TABLE "wilayah_search__next" USING fts5(terms)',
    );
  });

  it("finds the tables a seed writes and those it empties", () => {
    const { tables, emptied } = seedTables(
      "DELETE FROM kelurahan;\nINSERT INTO kelurahan VALUES (1);\nDELETE FROM wilayah_shape WHERE level = 1;\nINSERT OR REPLACE INTO dataset (id) VALUES ('wilayah');\n",
    );
    expect(tables).toEqual(["kelurahan", "wilayah_shape"]);
    expect([...emptied]).toEqual(["kelurahan"]);
  });

  it("swaps in one statement list: tables renamed, indexes rebuilt under their names, markers last", () => {
    const swap = swapSql(
      ["kelurahan"],
      [{ type: "index", name: "k_idx", tbl_name: "kelurahan", sql: "CREATE INDEX `k_idx` ON `kelurahan` (`x`)" }],
      ["INSERT OR REPLACE INTO dataset VALUES ('wilayah', 'v2', 'c2');"],
    );
    expect(swap.split("\n")).toEqual([
      "ALTER TABLE kelurahan RENAME TO kelurahan__old;",
      "ALTER TABLE kelurahan__next RENAME TO kelurahan;",
      "DROP INDEX IF EXISTS k_idx;",
      "DROP INDEX IF EXISTS k_idx__next;",
      "CREATE INDEX `k_idx` ON `kelurahan` (`x`);",
      "INSERT OR REPLACE INTO dataset VALUES ('wilayah', 'v2', 'c2');",
    ]);
  });
});
