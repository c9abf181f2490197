/**
 * The neighbours of a seed build, kept between builds. They are computed from the boundaries and the
 * postal-code list alone (scripts/seed/neighbours.ts): about 20 s of a build's 45 s of CPU on a quiet
 * machine (every village outline's borders), the same for every build whose sources and code are the
 * same, while what changes between builds is the region lists (editions, corrections, coordinates).
 * So `edition:add`, `seed:build` and the suites' builds compute them once per change of what they are
 * made from, and read them back in about a second after that.
 *
 * Kept in node_modules/.cache/wilayah-api/ (git-ignored, gone with `npm ci`) by scripts/kept.ts,
 * named by a hash of the five source files and of the code that computes them. Set
 * WILAYAH_NEIGHBOURS_CACHE=off to compute them every time.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LEVELS } from "../../src/wilayah/codes.ts";
import { inputsKey } from "../inputs-key.ts";
import { kept } from "../kept.ts";
import { root } from "../lib.ts";
import { boundarySource, sourcesDir } from "./boundary-sql.ts";
import { buildNeighbours, type NeighbourResult } from "./neighbours.ts";

const NEIGHBOURS_CACHE = join(root, "node_modules", ".cache", "wilayah-api");

/**
 * What names the neighbours: the sources in `seedDir` by content alone (a copy of seed/, as the
 * edition suite builds in, names the same), and the code that reads and computes them.
 */
function keyOf(seedDir: string): string {
  const sources = createHash("sha256");
  for (const file of [...LEVELS.map((level) => boundarySource(seedDir, level)), join(sourcesDir(seedDir), "wilayah-postal-codes.csv")]) {
    sources.update(readFileSync(file));
  }
  const code = [join(root, "scripts", "seed"), join(root, "scripts", "lib.ts"), join(root, "src", "wilayah", "codes.ts"), join(root, "src", "wilayah", "geo")];
  return inputsKey(code, sources.digest("hex"));
}

/** Every level's neighbours from the boundaries in `seedDir`: read back when kept, else computed and kept. */
export function cachedNeighbours(seedDir: string): Promise<NeighbourResult> {
  if (process.env.WILAYAH_NEIGHBOURS_CACHE === "off") return buildNeighbours(seedDir);
  return kept(NEIGHBOURS_CACHE, "neighbours", keyOf(seedDir), () => buildNeighbours(seedDir));
}
