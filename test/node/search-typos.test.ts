/**
 * Search typos on fresh draws (issue 52): a committed draw of the quality set is one sample of its
 * rules, and a fix tuned on it may not hold on the next (a new draw scored 42 of 48). Here the typo
 * group is drawn again with random seeds the project never tuned on (scripts/search-queries.ts
 * buildQualitySet) and run through the real search service on a node:sqlite copy of the data
 * (scripts/sqlite-d1.ts): the expected region in the top 3 for at least 95% over the draws.
 * `npm run search:quality -- --seeds ...` prints the same per draw, with the misses.
 */
import { DatabaseSync } from "node:sqlite";
import { expect, it } from "vitest";
import { rateSearch } from "../../scripts/search-quality";
import { buildQualitySet } from "../../scripts/search-queries";
import { searchSqlDb, sqliteDb } from "../../scripts/sqlite-d1";
import { search } from "../../src/wilayah/search/service";
import { builtSeed } from "./built-seed.ts";

const SEEDS = [201, 202, 203];

it(`finds the typo group's region in the top 3 for >= 95% over fresh draws (seeds ${SEEDS.join(", ")})`, { timeout: 600_000 }, async () => {
  const db = sqliteDb(new DatabaseSync(searchSqlDb(), { readOnly: true }));
  const built = await builtSeed();
  let hits = 0;
  let total = 0;
  const misses: string[] = [];
  for (const seed of SEEDS) {
    const typo = (await rateSearch(search, db, await buildQualitySet(seed, built, { nameGroups: false }), "typo")).get("typo");
    expect(typo?.total, `seed ${seed}`).toBe(48);
    hits += typo?.hits ?? 0;
    total += typo?.total ?? 0;
    misses.push(...(typo?.misses ?? []).map((m) => `seed ${seed}: ${m}`));
  }
  console.log(`typo group over ${SEEDS.length} fresh draws: ${hits}/${total}${misses.length ? `; misses:\n  ${misses.join("\n  ")}` : ""}`);
  expect(hits / total, misses.join("; ")).toBeGreaterThanOrEqual(0.95);
});
