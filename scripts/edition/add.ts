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
 *   ... --seed DIR
 *       the seed in DIR (a copy: the edition tests take in a synthetic edition in one) instead of seed/
 *
 * One process: the review and the build are given the registry with the new edition appended as a
 * value (scripts/seed/history-editions.ts, HistoryInputs), and the seed directory is written only
 * once both are done.
 *
 * Any problem (each with its line number): nothing is written, exit 1. The maintainers' runbook is
 * docs/api.md, "A new decree is out".
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { isMain, root, seedDirArg } from "../lib.ts";
import { buildSeed, writeSeed } from "../seed/build.ts";
import {
  csvFields,
  curatedFile,
  type Edition,
  type HistoryInputs,
  parseCurated,
  parseEditionList,
  type Registry,
  readEditions,
  readRegistry,
  registryFile,
} from "../seed/history-editions.ts";
import { checkEdition, decodeList, largeDrops, type Problem, readList } from "./input.ts";
import { type ReviewCounts, review } from "./review.ts";

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

const registryJson = (r: Registry) => `${JSON.stringify(r, null, 2)}\n`;

export type AddResult = { problems: Problem[]; report?: string; counts?: ReviewCounts; written: boolean };

/** Takes the edition `o` describes into the seed in `seedDir` (written only with `o.write`, and only when nothing failed). */
export async function addEdition(seedDir: string, o: AddOptions): Promise<AddResult> {
  const registry = readRegistry(seedDir);
  const current = registry.editions[registry.editions.length - 1];
  const { text, encoding } = decodeList(readFileSync(o.file));
  // Today's list as the current edition spells it (the editions file's official spelling, not the region tables' names).
  const lists = readEditions(seedDir, registry.editions);
  const today = lists.get(current.id) ?? new Map<string, string>();
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
  const curatedCsv = `${readFileSync(curatedFile(seedDir), "utf8").replace(/\n*$/, "\n")}${curated.rows.map((r) => `${r}\n`).join("")}`;

  const edition: Edition = { id: o.id, regulation: o.decree, date: o.date, file: `editions/${o.id}.csv.gz`, added: new Date().toISOString().slice(0, 10) };
  const listCsv = `code,name\n${entries
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .map((e) => `${e.code},${csvField(e.name)}`)
    .join("\n")}\n`;
  const editions = [...registry.editions, edition];
  // The seed's inputs with the new edition, as the build reads them once written: its list as its
  // own file parses, the curated links with its rows.
  const inputs: HistoryInputs = {
    editions,
    lists: new Map([...lists, [o.id, parseEditionList(listCsv, edition.file as string)]]),
    curated: parseCurated(curatedCsv, editions),
  };
  const reviewed = await review(seedDir, inputs);
  // The whole seed from the new registry (regions, history, search index, name table, manifest),
  // built in memory: a failure leaves the seed directory as it was.
  const built = o.write ? await buildSeed(seedDir, { history: inputs }) : undefined;
  const markdown = `${reviewed.markdown}\nRead as ${encoding}; ${entries.length} codes.\n`;
  const reportFiles = [
    ...(o.report ? [o.report] : []),
    ...(o.write ? [join(seedDir, "editions", `${o.id}.review.md`)] : o.report ? [] : [join(root, ".wrangler", `edition-${o.id}-review.md`)]),
  ];
  for (const f of reportFiles) {
    mkdirSync(dirname(f), { recursive: true });
    writeFileSync(f, markdown);
  }
  if (built) {
    writeFileSync(join(seedDir, edition.file as string), gzipSync(listCsv, { level: 9 }));
    writeFileSync(curatedFile(seedDir), curatedCsv);
    writeSeed(seedDir, built);
    // last: the registry names the new edition once everything it needs is in place
    writeFileSync(registryFile(seedDir), registryJson({ ...registry, editions }));
  }
  return { problems, report: markdown, counts: reviewed.counts, written: o.write };
}

async function main() {
  const args = process.argv.slice(2);
  const seedDir = seedDirArg(args);
  let o: AddOptions;
  try {
    o = parseArgs(args);
  } catch (e) {
    console.error(
      `${e instanceof Error ? e.message : e}\nusage: npm run edition:add -- --id 2026 --decree "Kepmendagri ..." --date YYYY-MM-DD --file list.csv [--curated links.csv] [--write] [--allow-large-change] [--report FILE] [--seed DIR]`,
    );
    process.exit(1);
  }
  const r = await addEdition(seedDir, o);
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
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
