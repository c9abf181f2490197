/**
 * Vitest global setup (node): a small bulk export for the Worker tests (test/wilayah/export.test.ts
 * puts it into the test R2), built by the same code as the real one (scripts/seed/exports.ts) for
 * two levels only: provinsi and kabupaten/kota, every format. Rebuilt only when the seed changes.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildExports } from "../../scripts/seed/exports.ts";
import { exportId } from "../../src/wilayah/export/files.ts";

export const EXPORT_SUBSET_DIR = join(import.meta.dirname, "..", ".generated", "exports");

export default async function setup() {
  const seed = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "seed", "manifest.json"), "utf8"));
  const manifest = join(EXPORT_SUBSET_DIR, "manifest.json");
  if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).export_id === exportId(seed)) return;
  await buildExports(EXPORT_SUBSET_DIR, { levels: ["provinsi", "kabupaten"] });
}
