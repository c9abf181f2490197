import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import boundariesSql from "../.generated/kelurahan-boundaries.sql?raw";

// The seed as vitest.config.ts hands it to the Worker: since the BPS codes (issue 39) it is over 32 MB,
// more than a `?raw` import can carry to workerd (its module transport refuses the message).
const seedSql = (env as unknown as { TEST_SEED_SQL: string }).TEST_SEED_SQL;

async function snapshot() {
  const counts = await env.DB.batch(
    [
      "provinsi",
      "kabupaten",
      "kecamatan",
      "kelurahan",
      "wilayah_search",
      "dataset",
      "wilayah_grams",
      "wilayah_short",
      "pulau",
      "wilayah_shape",
      "wilayah_bbox",
      "wilayah_grid",
      "wilayah_anc",
      "wilayah_postal",
      "wilayah_edition",
      "wilayah_history",
      "wilayah_successor",
      "wilayah_change",
      "wilayah_change_run",
      "wilayah_former",
      "wilayah_bps",
      "wilayah_corrections",
    ].map((t) => env.DB.prepare(`SELECT count(*) AS n FROM ${t}`)),
  );
  const sample = await env.DB.prepare("SELECT * FROM kelurahan WHERE id IN ('32.73.09.1001', '35.13.15.2017') ORDER BY id").all();
  const search = await env.DB.prepare("SELECT id, terms, parent FROM wilayah_search WHERE id = '12.74'").first();
  return { counts: counts.map((c) => c.results), sample: sample.results, search };
}

it("loading the seed (and the kelurahan boundaries) a second time changes nothing", async () => {
  const before = await snapshot();
  for (const sql of [seedSql, boundariesSql]) {
    const statements = sql.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("--"));
    for (let i = 0; i < statements.length; i += 50) await env.DB.batch(statements.slice(i, i + 50).map((s) => env.DB.prepare(s)));
  }
  expect(await snapshot()).toEqual(before);
  expect(before.counts[8]).toEqual([{ n: 17_373 + 4 }]);
  expect(before.counts[4]).toEqual([{ n: 38 + 514 + 7285 + 83762 + 117 }]);
  // region history: 6 editions, 21,721 codes with history beyond their region row, 7,441 successor links, 12,610 changes in 44 runs, 4,068 regions with former names;
  // BPS codes; corrections from accepted reports (seed/corrections.csv: none yet)
  expect(before.counts.slice(14).map((c) => (c[0] as { n: number }).n)).toEqual([6, 21_721, 7_441, 12_610, 44, 4_067, 92_539, 0]);
});
