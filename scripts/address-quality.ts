/**
 * The address resolver's quality and cost without the Worker: the real service
 * (src/wilayah/addresses/service.ts, bundled with esbuild as the Worker is) on a D1 shim over a
 * node:sqlite copy of the data (scripts/sqlite-d1.ts `searchSqlDb`), over the quality set in batches
 * of 100 as the API takes them. Prints the report the quality test prints
 * (test/wilayah/address-quality.test.ts, which runs the same set through HTTP and fails below the
 * issue's floors), plus the statements per batch and their time.
 *
 *   npm run address:quality                      rates per style, calibration, real addresses
 *   npm run address:quality -- --misses          and every wrong answer, explained
 *   npm run address:quality -- --set FILE        another draw (npm run address:set -- --seed 7 --out FILE)
 *   npm run address:quality -- "Braga, Bandung 40111" ...   these addresses' answers, in full
 *   npm run address:quality -- --world [--misses]      the real-world development set (test/fixtures/address-world.json,
 *                                                     scripts/address-world-rates.ts), and its wrong answers
 *   npm run address:quality -- --heldout             the real-world held-out set: report only, never tune on it
 *   npm run address:quality -- --heldout-hard        its harder variant (written kecamatan disagreeing with the label kept): report only
 *   npm run address:quality -- --extra               the larger development set (.wrangler/, built by address:world; tuning only)
 *   npm run address:quality -- --hard                the harder variant's development half (.wrangler/, built by address:world; tuning only)
 *   npm run address:quality -- --calibration         per confidence band, the share right on the held-out set and its harder
 *                                                    variant (the table of docs/api.md, "Addresses"): report only
 *   npm run address:quality -- --raw                 coverage of the raw, unlabelled addresses (.wrangler/address-raw.json, built locally)
 * (--calibration, then the real-world sets and --raw, print their reports only, in that order, instead of the quality set's.)
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { belowFloors, formatRates, rateAnswers } from "./address-rates.ts";
import type { RealAddress } from "./address-real.ts";
import type { AddressCase } from "./address-set.ts";
import { EXTRA_FILE, HARD_DEV_FILE, HARD_HELDOUT, RAW_FILE } from "./address-world.ts";
import {
  calibrate,
  formatCalibration,
  formatRawRates,
  formatWorldRates,
  type RawAnswer,
  rateRaw,
  rateWorld,
  type WorldAnswer,
  type WorldCase,
  worldMisses,
} from "./address-world-rates.ts";
import { importBundled } from "./bundle.ts";
import { isMain, root } from "./lib.ts";
import { searchSqlDb, sqliteDb } from "./sqlite-d1.ts";

const BATCH = 100;

const loadService = () => importBundled<typeof import("../src/wilayah/addresses/service.ts")>("src/wilayah/addresses/service.ts", "address-service");

async function main() {
  const args = process.argv.slice(2);
  const setAt = args.indexOf("--set");
  const setFile = setAt >= 0 ? args[setAt + 1] : join(root, "test", "fixtures", "address-set.json");
  const texts = args.filter((a, i) => !a.startsWith("--") && args[i - 1] !== "--set");
  const statements: { ms: number; sql: string }[] = [];
  const sqlite = new DatabaseSync(searchSqlDb(), { readOnly: true });
  const db = sqliteDb(sqlite, (run) => statements.push({ ms: run.ms, sql: run.sql }));
  const { resolveAddresses } = await loadService();
  if (texts.length) {
    for (const a of await resolveAddresses(db, texts)) console.log(JSON.stringify(a, null, 1));
    return;
  }
  const fixture = <T>(name: string) => JSON.parse(readFileSync(name.startsWith("/") ? name : join(root, "test", "fixtures", name), "utf8")) as T;
  const worldSets = [
    { flag: "--world", file: "address-world.json", title: "real-world addresses, development set" },
    { flag: "--extra", file: EXTRA_FILE, title: "real-world addresses, larger development set (tuning only, not committed)" },
    { flag: "--hard", file: HARD_DEV_FILE, title: "real-world addresses, harder variant's development half (tuning only, not committed)" },
    { flag: "--heldout", file: "address-world-heldout.json", title: "real-world addresses, HELD-OUT set (report only: never tune on it)" },
    { flag: "--heldout-hard", file: HARD_HELDOUT, title: "real-world addresses, HELD-OUT harder variant (report only: never tune on it)" },
  ].filter((w) => args.includes(w.flag));
  const answersTo = async (cases: WorldCase[]) => {
    const answers: WorldAnswer[] = [];
    for (let i = 0; i < cases.length; i += BATCH)
      answers.push(
        ...(await resolveAddresses(
          db,
          cases.slice(i, i + BATCH).map((c) => c.text),
        )),
      );
    return answers;
  };
  if (args.includes("--calibration")) {
    const sets = [];
    for (const [title, file] of [
      ["held-out set", "address-world-heldout.json"],
      ["harder variant", HARD_HELDOUT],
    ]) {
      const cases = fixture<WorldCase[]>(file);
      sets.push({ title: `${title} (${cases.length})`, bands: calibrate(cases, await answersTo(cases)) });
    }
    console.log(`${formatCalibration(sets)}\n`);
    if (!worldSets.length && !args.includes("--raw")) return;
  }
  if (worldSets.length || args.includes("--raw")) {
    for (const w of worldSets) {
      const cases = fixture<WorldCase[]>(w.file);
      const answers = await answersTo(cases);
      const rates = rateWorld(cases, answers);
      console.log(`${formatWorldRates(rates, `${w.title} (${cases.length} cases, test/fixtures/${w.file})`)}\n`);
      if (!w.flag.startsWith("--heldout") && args.includes("--misses")) {
        const names = new Map(
          (sqlite.prepare("SELECT id, name FROM kecamatan UNION ALL SELECT id, name FROM kabupaten").all() as { id: string; name: string }[]).map((r) => [
            r.id,
            r.name,
          ]),
        );
        console.log(`${worldMisses(rates, names)}\n`);
      }
    }
    if (args.includes("--raw")) {
      if (!existsSync(RAW_FILE))
        throw new Error(
          `${RAW_FILE} is missing: npm run address:world -- --raw-mirror PATH builds it (not committed: see test/fixtures/address-world.README.md)`,
        );
      const texts = JSON.parse(readFileSync(RAW_FILE, "utf8")) as string[];
      const answers: (RawAnswer | Error)[] = [];
      for (let i = 0; i < texts.length; i += BATCH) {
        const batch = texts.slice(i, i + BATCH);
        try {
          answers.push(...(await resolveAddresses(db, batch)));
        } catch {
          // one by one, to tell which address throws
          for (const t of batch)
            answers.push(
              await resolveAddresses(db, [t]).then(
                (a) => a[0],
                (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
              ),
            );
        }
      }
      console.log(formatRawRates(rateRaw(texts, answers), `raw addresses (${texts.length}, .wrangler/address-raw.json; unlabelled: coverage only)`));
    }
    return;
  }
  const set = JSON.parse(readFileSync(setFile, "utf8")) as AddressCase[];
  const real = JSON.parse(readFileSync(join(root, "test", "fixtures", "address-real.json"), "utf8")) as RealAddress[];
  const run = async (list: string[]) => {
    const out = [];
    const perBatch: { statements: number; sqlMs: number; ms: number }[] = [];
    for (let i = 0; i < list.length; i += BATCH) {
      statements.length = 0;
      const t = performance.now();
      out.push(...(await resolveAddresses(db, list.slice(i, i + BATCH))));
      perBatch.push({ statements: statements.length, sqlMs: statements.reduce((a, s) => a + s.ms, 0), ms: performance.now() - t });
    }
    return { out, perBatch };
  };
  await resolveAddresses(db, ["warm up: Braga, Sumur Bandung, Kota Bandung"]);
  const { out, perBatch } = await run(set.map((c) => c.text));
  const { out: realOut } = await run(real.map((a) => a.text));
  const rates = rateAnswers(set, out, real, realOut);
  const sqlMs = perBatch.reduce((a, b) => a + b.sqlMs, 0);
  const ms = perBatch.reduce((a, b) => a + b.ms, 0);
  console.log(
    `${set.length} addresses in ${perBatch.length} batches of ${BATCH}: statements per batch ${Math.min(...perBatch.map((b) => b.statements))}-${Math.max(...perBatch.map((b) => b.statements))}; SQL ${(sqlMs / perBatch.length).toFixed(1)} ms per batch, the rest (parse, readings, scoring) ${((ms - sqlMs) / set.length).toFixed(2)} ms per address`,
  );
  console.log(formatRates(rates));
  const below = belowFloors(rates);
  console.log(below.length ? `BELOW THE FLOORS:\n  ${below.join("\n  ")}` : "every floor met");
  if (args.includes("--misses")) {
    for (const { c, a } of rates.misses) {
      console.log(`\n[${c.style}] ${c.text}\n  want ${c.kelurahan_id}${c.note ? ` (${c.note})` : ""}`);
      console.log(`  got ${JSON.stringify(a)}`);
    }
  }
}

if (isMain(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
}
