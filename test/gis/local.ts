/**
 * What the GIS suite (vitest project `gis`, test/gis) runs against: the Worker under `wrangler dev`
 * on loopback with a local state of its own (.wrangler/gis: D1 with the seed and every boundary, the
 * bulk exports with the FlatGeobuf files in R2, the development key), read by GDAL's own command-line
 * tools (`gdal-bin`). Nothing here reaches the internet.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root, toolEnv } from "../../scripts/lib.ts";
import buildTilesSubset, { TILES_SUBSET_DIR } from "../setup/tiles-subset.ts";

export const GIS_STATE = join(root, ".wrangler", "gis");
/** GIS_PORT moves the suite's Worker off its default (another checkout's suite, another engineer's ports). */
export const GIS_PORT = Number(process.env.GIS_PORT ?? 8831);
export const ORIGIN = `http://127.0.0.1:${GIS_PORT}`;

/** Fails loudly when GDAL's tools are missing: the suite never passes by skipping. */
export function assertGdal(): string {
  const r = spawnSync("ogrinfo", ["--version"], { encoding: "utf8" });
  if (r.status !== 0 || !/GDAL \d/.test(r.stdout)) {
    throw new Error(
      "The GIS suite needs GDAL's command-line tools (ogrinfo, ogr2ogr) with the OAPIF and FlatGeobuf drivers. On Debian/Ubuntu: " +
        "apt-get update && apt-get install -y gdal-bin (bash .ci/run does this when it is missing).",
    );
  }
  return r.stdout.trim();
}

/**
 * Migrations, the seed, every boundary and the bulk exports (FlatGeobuf included) in this state, and
 * a development key on the `internal` plan (scripts/dev.ts --no-serve --exports --tiles, which loads
 * only what is missing: CI copies a state prepared once). The vector tiles are the small test archive.
 */
export function prepareGisState(): string {
  buildTilesSubset();
  const r = spawnSync(process.execPath, [join(root, "scripts", "dev.ts"), "--no-serve", "--exports", "--tiles"], {
    cwd: root,
    env: { ...toolEnv, WRANGLER_PERSIST_TO: GIS_STATE, WRANGLER_HIDE_BANNER: "true", TILES_DIR: TILES_SUBSET_DIR },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error("preparing the GIS suite's local state failed (scripts/dev.ts --no-serve --exports --tiles)");
  return readFileSync(join(GIS_STATE, "dev-key"), "utf8").trim();
}

export type Run = { status: number | null; stdout: string; stderr: string; ms: number };

/** A GDAL tool, with its HTTP going to this machine only and `env` added (GDAL_HTTP_HEADERS and the like). */
export function gdal(tool: "ogrinfo" | "ogr2ogr", args: string[], env: Record<string, string> = {}): Run {
  const t0 = Date.now();
  const r = spawnSync(tool, args, {
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    timeout: 300_000,
    // EMPTY_DIR: /vsicurl/ does not list the folder of a file it opens (our export paths are no folders).
    env: { ...process.env, GDAL_HTTP_TIMEOUT: "120", GDAL_DISABLE_READDIR_ON_OPEN: "EMPTY_DIR", ...env },
  });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", ms: Date.now() - t0 };
}
