/**
 * A Worker module run in Node: bundled with esbuild as wrangler bundles the Worker (so the
 * extensionless imports of src/ resolve) into .wrangler/, then imported. For the node-side runners
 * of the Worker's own services on the D1 shim (scripts/sqlite-d1.ts).
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { root } from "./lib.ts";

/** `entry`: a path under the repository root (`src/wilayah/search/service.ts`); `name`: the bundle's file name in .wrangler/. */
export async function importBundled<T>(entry: string, name: string): Promise<T> {
  const out = join(root, ".wrangler", `${name}.mjs`);
  await build({ entryPoints: [join(root, entry)], bundle: true, platform: "node", format: "esm", outfile: out, logLevel: "warning" });
  return (await import(pathToFileURL(out).href)) as T;
}
