/**
 * Vitest global setup (node): writes the kelurahan/desa boundaries the Worker tests read, built by
 * the same code as the real load (scripts/seed/boundaries.ts) but only for a few areas, so every test
 * file's D1 loads in a second. The reverse-geocoding quality test reads all of them, on the node
 * side (test/node/reverse-quality.test.ts).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { inputsKey } from "../../scripts/inputs-key.ts";
import { root, SEED_DIR } from "../../scripts/lib.ts";
import { kelurahanBoundarySql } from "../../scripts/seed/boundaries.ts";

/** Kota Bandung, and Kabupaten Padang Pariaman (13.05), where village boundaries leave gaps inside kecamatan. */
export const TEST_BOUNDARY_AREAS = ["32.73.", "13.05."];

export const SUBSET_FILE = join(import.meta.dirname, "..", ".generated", "kelurahan-boundaries.sql");

export default function setup() {
  const stamp = `${SUBSET_FILE}.stamp`;
  // What the file is made from: the seed's manifest (its checksums cover the boundaries, the village
  // neighbours and the editions' lists), the seed scripts and the areas. Reading the village
  // boundaries again to compare took about 7 s at every run's start; this, milliseconds.
  const key = inputsKey([join(SEED_DIR, "manifest.json"), join(root, "scripts", "seed")], TEST_BOUNDARY_AREAS.join(","));
  if (existsSync(SUBSET_FILE) && existsSync(stamp) && readFileSync(stamp, "utf8") === key) return;
  mkdirSync(dirname(SUBSET_FILE), { recursive: true });
  writeFileSync(
    SUBSET_FILE,
    kelurahanBoundarySql(SEED_DIR, (id) => TEST_BOUNDARY_AREAS.some((a) => id.startsWith(a))),
  );
  writeFileSync(stamp, key);
}
