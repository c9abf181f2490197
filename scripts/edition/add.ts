/**
 * `npm run edition:add`: takes in a new edition of the Kemendagri code list (a decree's whole list).
 *
 *   npm run edition:add -- --id 2026 --decree "Kepmendagri No ... Tahun 2026" --date 2026-03-01 --file list.csv
 *       checks the list and prints the review report (also saved, --report FILE or .wrangler/edition-<id>-review.md)
 *   ... --write
 *       the same, then the edition joins seed/editions.json as the current one (its list in
 *       seed/editions/<id>.csv.gz, the report beside it) and the seed is rebuilt from it
 *   ... --curated links.csv
 *       the links the decree's law states (seed/history-curated.csv rows of the new edition: a
 *       province split off names where its kabupaten went), added to seed/history-curated.csv
 *   ... --allow-large-change
 *       accepts a list that drops more than 2% of today's codes of a level
 *
 * Any problem (each with its line number): nothing is written, exit 1. The maintainers' runbook is
 * docs/api.md, "A new decree is out".
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { isMain, root, seedDir } from "../lib.ts";
import { CURATED_FILE, csvFields, type Edition, type Registry, readEditions, readRegistry } from "../seed/history-editions.ts";
import { checkEdition, decodeList, largeDrops, type Problem, readList } from "./input.ts";
import type { ReviewCounts } from "./review.ts";

export type AddOptions = {
  id: string;
  decree: string;
  date: string;
  file: string;
  curated?: string;
  write: boolean;
  allowLargeChange: boolean;
  report?: string;
};

function parseArgs(argv: string[]): AddOptions {
  const value = (name: string) => {
    const at = argv.indexOf(name);
    const v = at >= 0 ? argv[at + 1] : undefined;
    if (!v || v.startsWith("--")) throw new UsageError(`${name} is required`);
    return v;
  };
  const at = argv.indexOf("--report");
  const cu = argv.indexOf("--curated");
  return {
    curated: cu >= 0 ? argv[cu + 1] : undefined,
    id: value("--id"),
    decree: value("--decree"),
    date: value("--date"),
    file: value("--file"),
    write: argv.includes("--write"),
    allowLargeChange: argv.includes("--allow-large-change"),
    report: at >= 0 ? argv[at + 1] : undefined,
  };
}

class UsageError extends Error {}

/** Today's list as the current edition spells it (the editions file's official spelling, not the region tables' names). */
const todaysList = (current: Edition) => readEditions().get(current.id) ?? new Map<string, string>();

/** `--curated`: the links the decree's law states (seed/history-curated.csv rows), for the new edition only. */
function readCuratedRows(file: string, id: string, today: Map<string, string>, next: Set<string>): { rows: string[]; problems: Problem[] } {
  const lines = readFileSync(file, "utf8").split(/\r?\n/);
  const problems: Problem[] = [];
  if (lines[0]?.trim() !== "edition,old_code,new_code,relation,source")
    return { rows: [], problems: [{ line: 1, message: `${file}: the header must be "edition,old_code,new_code,relation,source"` }] };
  const rows: string[] = [];
  lines.slice(1).forEach((line, i) => {
    if (!line.trim()) return;
    const [edition, oldCode, newCode, relation, source, ...rest] = csvFields(line);
    const bad = (m: string) => problems.push({ line: i + 2, message: `${file}: ${m}` });
    if (edition !== id) bad(`edition ${edition} is not the new edition ${id}`);
    else if (!today.has(oldCode)) bad(`${oldCode} is no code of today's list`);
    else if (!next.has(newCode)) bad(`${newCode} is no code of the new list`);
    else if ((relation !== "successor" && relation !== "part") || !source?.trim() || rest.length)
      bad("relation is successor or part, and a source is required");
    else rows.push(line.trim());
  });
  return { rows, problems };
}

const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

/** A seed directory where the registry has the new edition last: links to everything else of `seedDir`. */
function stagingDir(registry: Registry, edition: Edition, listGz: Buffer, curated: string): string {
  const dir = mkdtempSync(join(tmpdir(), "wilayah-edition-"));
  // its own inputs, and the build's outputs (a link would write through to the real seed)
  const own = ["editions.json", "editions", "history-curated.csv", ...BUILD_OUTPUTS];
  for (const entry of readdirSync(seedDir)) if (!own.includes(entry)) symlinkSync(join(seedDir, entry), join(dir, entry));
  writeFileSync(join(dir, "history-curated.csv"), curated);
  mkdirSync(join(dir, "editions"));
  for (const e of registry.editions) if (e.file) symlinkSync(join(seedDir, e.file), join(dir, e.file));
  writeFileSync(join(dir, edition.file as string), listGz);
  writeFileSync(join(dir, "editions.json"), registryJson({ ...registry, editions: [...registry.editions, edition] }));
  return dir;
}

/** What scripts/seed/build.ts writes into the seed directory. */
const BUILD_OUTPUTS = ["wilayah.sql", "manifest.json", "vocabulary.json", "name-table.json", "neighbours-kelurahan.csv.gz"];

const registryJson = (r: Registry) => `${JSON.stringify(r, null, 2)}\n`;

function runChild(script: string, dir: string, capture: boolean): string {
  const r = spawnSync(process.execPath, [join(root, "scripts", ...script.split("/"))], {
    env: { ...process.env, WILAYAH_SEED_DIR: dir },
    encoding: "utf8",
    stdio: capture ? ["ignore", "pipe", "inherit"] : "inherit",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`${script} failed (exit ${r.status})`);
  return r.stdout ?? "";
}

export type AddResult = { problems: Problem[]; report?: string; counts?: ReviewCounts; written: boolean };

export function addEdition(o: AddOptions): AddResult {
  const registry = readRegistry();
  const current = registry.editions[registry.editions.length - 1];
  const { text, encoding } = decodeList(readFileSync(o.file));
  const today = todaysList(current);
  const { entries, problems } = readList(text, today);
  problems.push(
    ...checkEdition(
      o.id,
      o.date,
      current,
      registry.editions.map((e) => e.id),
    ),
  );
  if (!problems.some((p) => p.line !== null)) {
    const drops = largeDrops(today.keys(), new Set(entries.map((e) => e.code)));
    for (const d of drops)
      if (!o.allowLargeChange)
        problems.push({
          line: null,
          message: `the list drops ${d.dropped} of today's ${d.of} ${d.level} codes (over 2%); pass --allow-large-change if the decree really does`,
        });
  }
  const curated = o.curated ? readCuratedRows(o.curated, o.id, today, new Set(entries.map((e) => e.code))) : { rows: [], problems: [] };
  problems.push(...curated.problems);
  if (problems.length) return { problems, written: false };
  const curatedCsv = `${readFileSync(CURATED_FILE, "utf8").replace(/\n*$/, "\n")}${curated.rows.map((r) => `${r}\n`).join("")}`;

  const edition: Edition = { id: o.id, regulation: o.decree, date: o.date, file: `editions/${o.id}.csv.gz`, added: new Date().toISOString().slice(0, 10) };
  const listCsv = `code,name\n${entries
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .map((e) => `${e.code},${csvField(e.name)}`)
    .join("\n")}\n`;
  const listGz = gzipSync(listCsv, { level: 9 });
  const dir = stagingDir(registry, edition, listGz, curatedCsv);
  try {
    const review = JSON.parse(runChild("edition/review.ts", dir, true)) as { markdown: string; counts: ReviewCounts };
    // The whole seed from the new registry (regions, history, search index, name table, manifest),
    // built beside the real one: a failure leaves the seed directory as it was.
    if (o.write) runChild("seed/build.ts", dir, false);
    const markdown = `${review.markdown}\nRead as ${encoding}; ${entries.length} codes.\n`;
    const reportFile = o.report ?? (o.write ? join(dir, "editions", `${o.id}.review.md`) : join(root, ".wrangler", `edition-${o.id}-review.md`));
    mkdirSync(dirname(reportFile), { recursive: true });
    writeFileSync(reportFile, markdown);
    if (o.write) {
      mkdirSync(join(seedDir, "editions"), { recursive: true });
      for (const f of [...BUILD_OUTPUTS, "history-curated.csv", edition.file as string, `editions/${o.id}.review.md`, "editions.json"])
        copyFileSync(join(dir, f), join(seedDir, f));
    }
    return { problems, report: markdown, counts: review.counts, written: o.write };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main() {
  let o: AddOptions;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    console.error(
      `${e instanceof Error ? e.message : e}\nusage: npm run edition:add -- --id 2026 --decree "Kepmendagri ..." --date YYYY-MM-DD --file list.csv [--curated links.csv] [--write] [--allow-large-change] [--report FILE]`,
    );
    process.exit(1);
  }
  const r = addEdition(o);
  if (r.problems.length) {
    for (const p of r.problems) console.error(`${p.line === null ? "edition" : `${relative(process.cwd(), o.file)}:${p.line}`}: ${p.message}`);
    console.error(`${r.problems.length} problem(s); nothing written.`);
    process.exit(1);
  }
  process.stdout.write(r.report ?? "");
  console.log(
    r.written
      ? `\nEdition ${o.id} is now current in ${relative(root, seedDir) || "."}/editions.json and the seed is rebuilt. Next: review the diff, commit, then \`npm run seed:apply -- --local\` (and --remote), then deploy.`
      : `\nNothing written (no --write). Report saved.`,
  );
}

if (isMain(import.meta.url)) {
  try {
    main();
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
