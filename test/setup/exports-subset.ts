/**
 * Vitest global setup (node): a small bulk export for the Worker tests (test/wilayah/export.test.ts
 * puts it into the test R2), built by the same code as the real one (scripts/seed/exports.ts) for
 * two levels only: provinsi and kabupaten/kota, every format (FlatGeobuf too); and the code mapping of one edition
 * (MAPPING_SUBSET: every format, the codes of Papua and Papua Barat only: the 2022 Papua formations,
 * with a code of every status) for test/wilayah/mapping.test.ts. Rebuilt only when the seed changes.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SEED_DIR } from "../../scripts/lib.ts";
import { buildExports } from "../../scripts/seed/exports.ts";
import { parentAt } from "../../src/wilayah/codes.ts";
import { exportId, LAYOUT } from "../../src/wilayah/export/files.ts";

export const EXPORT_SUBSET_DIR = join(import.meta.dirname, "..", ".generated", "exports");
// The layout the files were built in: files of an earlier layout (other columns) are never reused.
const LAYOUT_STAMP = join(EXPORT_SUBSET_DIR, ".layout");
/** The subset's binary files, also written as base64 (`<name>.b64`) for the Worker tests to import. */
export const FGB_SUBSET = ["provinsi.fgb", "kabupaten.fgb"];
/** The mapping files the subset has: one edition, the codes under these provinces. */
export const MAPPING_SUBSET = { edition: "2022", provinces: ["91", "92"] };

export default async function setup() {
  const seed = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "seed", "manifest.json"), "utf8"));
  const manifest = join(EXPORT_SUBSET_DIR, "manifest.json");
  const fresh = existsSync(manifest) && existsSync(LAYOUT_STAMP) && readFileSync(LAYOUT_STAMP, "utf8") === LAYOUT;
  const held = fresh ? JSON.parse(readFileSync(manifest, "utf8")) : null;
  if (held?.export_id === exportId(seed) && held.mappings?.length) return;
  await buildExports(SEED_DIR, EXPORT_SUBSET_DIR, {
    levels: ["provinsi", "kabupaten"],
    mappingEditions: [MAPPING_SUBSET.edition],
    mappingFilter: (code) => MAPPING_SUBSET.provinces.includes(parentAt(code, "provinsi")),
  });
  // The FlatGeobuf files are binary: the Worker tests import them as base64 text (a `?raw` import is UTF-8 text).
  for (const name of FGB_SUBSET) writeFileSync(join(EXPORT_SUBSET_DIR, `${name}.b64`), readFileSync(join(EXPORT_SUBSET_DIR, name)).toString("base64"));
  writeFileSync(LAYOUT_STAMP, LAYOUT);
}
