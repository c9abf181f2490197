import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { BUDGET, PAID_LIMIT } from "./bundle-size.ts";

const script = join(import.meta.dirname, "bundle-size.ts");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A dry run's output folder: the given modules plus the source map and README wrangler writes beside them. */
function outdir(modules: Record<string, Buffer | string>): string {
  const dir = mkdtempSync(join(tmpdir(), "bundle-size-"));
  dirs.push(dir);
  for (const [name, body] of Object.entries(modules)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), body);
  }
  // Random bytes do not compress: were the map counted, the small bundles below would fail.
  writeFileSync(join(dir, "index.js.map"), randomBytes(PAID_LIMIT));
  writeFileSync(join(dir, "README.md"), "built output");
  return dir;
}

const run = (dir: string) => spawnSync(process.execPath, [script, dir], { encoding: "utf8" });

it("passes a bundle under 80% of the paid limit and prints its gzipped size and both limits", () => {
  const r = run(outdir({ "index.js": "export default {};\n".repeat(50_000), "lib/a.wasm": randomBytes(100_000) }));
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/bundle: 2 module\(s\), [\d.]+ MiB raw, 0\.\d\d MiB gzipped/);
  expect(r.stdout).toContain("free plan limit 3.00 MiB");
  expect(r.stdout).toContain("paid plan limit 10.00 MiB");
  expect(r.stdout).toContain("bundle: ok");
});

it("fails a bundle whose gzipped size passes 80% of the paid limit, though each module alone is under it", () => {
  // Two incompressible modules of 42% of the limit each: 84% gzipped together.
  const part = Math.ceil(PAID_LIMIT * (BUDGET / 2 + 0.02));
  const r = run(outdir({ "index.js": randomBytes(part), "chunk.js": randomBytes(part) }));
  expect(r.status).toBe(1);
  expect(r.stdout).toContain("bundle: FAILED: over 80% of the paid limit (8.00 MiB)");
  expect(r.stdout).toMatch(/paid plan limit 10\.00 MiB: 84\.\d%/);
});

it("fails an output folder without a module (a dry run that wrote nothing) and a missing argument", () => {
  expect(run(outdir({})).status).toBe(1);
  expect(spawnSync(process.execPath, [script], { encoding: "utf8" }).status).toBe(2);
});
