/**
 * Writes test/setup/durations.json, the order the test files start in (test/setup/sequencer.ts:
 * the longest first), from the durations vitest kept of the last run (its cache,
 * node_modules/.vite/vitest/<hash>/results.json): every file of 3 s or more, in seconds. Run after a
 * full `npm test` on the machine CI uses: `npm run test:durations`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./lib.ts";

const cache = join(root, "node_modules", ".vite", "vitest");
const runs = existsSync(cache)
  ? readdirSync(cache)
      .map((d) => join(cache, d, "results.json"))
      .filter(existsSync)
  : [];
if (runs.length === 0) throw new Error(`no vitest results in ${cache}: run npm test first`);
const results = new Map<string, number>();
for (const file of runs) {
  const { results: entries } = JSON.parse(readFileSync(file, "utf8")) as { results: [string, { duration: number; failed: boolean }][] };
  for (const [spec, r] of entries) if (!r.failed) results.set(spec, Math.max(results.get(spec) ?? 0, r.duration));
}
const durations = Object.fromEntries(
  [...results]
    .filter(([, ms]) => ms >= 3_000)
    .sort((a, b) => b[1] - a[1])
    .map(([spec, ms]) => [spec, Math.round(ms / 1000)]),
);
const out = join(root, "test", "setup", "durations.json");
writeFileSync(out, `${JSON.stringify(durations, null, 2)}\n`);
console.log(`${out}: ${Object.keys(durations).length} files`);
