/**
 * Vitest global setup (node): a small vector-tile archive for the Worker tests (test/tiles/), built
 * by the same code as the real one (scripts/seed/tiles.ts) for two provinces only: Jawa Barat (32)
 * and Sumatera Barat (13), their kabupaten/kota, the kecamatan of Kota Bandung (32.73) and Kabupaten
 * Padang Pariaman (13.05), and the villages of Kota Bandung. All zooms (0 to 12): about 1,600 tiles
 * in about 15 s. Written as base64 text (the Worker tests import it `?raw`); rebuilt only when the
 * seed or the tiles' layout changes. Also run by itself (.ci/run: the shared local state's tiles):
 *
 *   node scripts/boot.mjs node test/setup/tiles-subset.ts
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMain, SEED_DIR } from "../../scripts/lib.ts";
import { buildTiles } from "../../scripts/seed/tiles.ts";
import { TILES_FILE, TILES_LAYOUT, tilesId } from "../../src/tiles/files.ts";

export const TILES_SUBSET_DIR = join(import.meta.dirname, "..", ".generated", "tiles");
const PROVINCES = ["32", "13"];
const AREAS = ["32.73", "13.05"];

export default function setup() {
  const seed = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "seed", "manifest.json"), "utf8"));
  const stamp = join(TILES_SUBSET_DIR, ".stamp");
  const want = `${TILES_LAYOUT} ${tilesId(seed)}`;
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === want) return;
  mkdirSync(TILES_SUBSET_DIR, { recursive: true });
  const report = buildTiles(SEED_DIR, TILES_SUBSET_DIR, {
    filter: (level, id) =>
      level === "provinsi" || level === "kabupaten"
        ? PROVINCES.some((p) => id.startsWith(p))
        : level === "kelurahan"
          ? id.startsWith("32.73.")
          : AREAS.some((a) => id.startsWith(a)),
  });

  writeFileSync(join(TILES_SUBSET_DIR, "archive.b64"), readFileSync(join(TILES_SUBSET_DIR, TILES_FILE)).toString("base64"));
  writeFileSync(join(TILES_SUBSET_DIR, "subset-report.json"), JSON.stringify(report));
  writeFileSync(stamp, want);
}

if (isMain(import.meta.url)) setup();
