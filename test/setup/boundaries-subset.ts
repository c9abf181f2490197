/**
 * Vitest global setup (node): writes the kelurahan/desa boundaries the Worker tests read, built by
 * the same code as the real load (scripts/seed/boundaries.ts) but only for a few areas, so every test
 * file's D1 loads in a second. The reverse-geocoding quality test reads all of them, on the node
 * side (test/node/reverse-quality.test.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { SEED_DIR } from "../../scripts/lib.ts";
import { kelurahanBoundarySql } from "../../scripts/seed/boundaries.ts";

/** Kota Bandung, and Kabupaten Padang Pariaman (13.05), where village boundaries leave gaps inside kecamatan. */
export const TEST_BOUNDARY_AREAS = ["32.73.", "13.05."];

export const SUBSET_FILE = join(import.meta.dirname, "..", ".generated", "kelurahan-boundaries.sql");

export default function setup() {
  const sql = kelurahanBoundarySql(SEED_DIR, (id) => TEST_BOUNDARY_AREAS.some((a) => id.startsWith(a)));
  if (existsSync(SUBSET_FILE) && readFileSync(SUBSET_FILE, "utf8") === sql) return;
  mkdirSync(dirname(SUBSET_FILE), { recursive: true });
  writeFileSync(SUBSET_FILE, sql);
}
