/**
 * Copies the API reference page's browser files (Swagger UI, from the `swagger-ui-dist` package)
 * into public/docs/vendor/, which Workers static assets serve at /docs/vendor/. Run by wrangler
 * before `dev` and `deploy` (wrangler.toml [build]) and by the test config; copies only when the
 * package version changed. Node only.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { isMain, root } from "./lib.ts";

const FILES = ["swagger-ui-bundle.js", "swagger-ui.css"];

export function copyDocsAssets(): void {
  const require = createRequire(import.meta.url);
  const pkgDir = dirname(require.resolve("swagger-ui-dist/package.json"));
  const version = (JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { version: string }).version;
  const out = join(root, "public", "docs", "vendor");
  const stamp = join(out, "VERSION");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === version && FILES.every((f) => existsSync(join(out, f)))) return;
  mkdirSync(out, { recursive: true });
  for (const f of FILES) copyFileSync(join(pkgDir, f), join(out, f));
  writeFileSync(stamp, version);
}

if (isMain(import.meta.url)) copyDocsAssets();
