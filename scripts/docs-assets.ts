/**
 * Copies the browser files the Worker's static assets serve from node_modules: the API reference
 * page's Swagger UI (`swagger-ui-dist`) into public/docs/vendor/ (served at /docs/vendor/), and
 * MapLibre GL JS (`maplibre-gl`: the module, its worker and stylesheet) into public/vendor/maplibre/
 * (served at /vendor/maplibre/, for the map explorer: no CDN, and the worker is a same-origin file,
 * which the pages' CSP allows where MapLibre's default blob worker is refused). Run by wrangler
 * before `dev` and `deploy` (wrangler.toml [build]) and by the test config; copies only when a
 * package's version changed. Node only.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { isMain, root } from "./lib.ts";

const require = createRequire(import.meta.url);
// Each package resolved by a literal name (so the dependency checker sees it is used).
const COPIES = [
  {
    pkgJson: () => require.resolve("swagger-ui-dist/package.json"),
    from: "",
    files: ["swagger-ui-bundle.js", "swagger-ui.css"],
    out: join("public", "docs", "vendor"),
  },
  {
    pkgJson: () => require.resolve("maplibre-gl/package.json"),
    from: "dist",
    files: ["maplibre-gl.mjs", "maplibre-gl-worker.mjs", "maplibre-gl.css"],
    out: join("public", "vendor", "maplibre"),
  },
];

export function copyDocsAssets(): void {
  for (const c of COPIES) {
    const pkgDir = dirname(c.pkgJson());
    const version = (JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { version: string }).version;
    const out = join(root, c.out);
    const stamp = join(out, "VERSION");
    if (existsSync(stamp) && readFileSync(stamp, "utf8") === version && c.files.every((f) => existsSync(join(out, f)))) continue;
    mkdirSync(out, { recursive: true });
    for (const f of c.files) copyFileSync(join(pkgDir, c.from, f), join(out, f));
    writeFileSync(stamp, version);
  }
}

if (isMain(import.meta.url)) copyDocsAssets();
