/**
 * The region history's inputs (moved from history.ts): the editions, code levels, and the parsing
 * of the editions file and the curated links, read from a seed directory given by the caller.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { LEVELS, type Level, levelOf } from "../../src/wilayah/codes.ts";

/** The six editions of the sources (2015 .. 2025) in one file. */
const editionsFile = (seedDir: string) => join(seedDir, "sources", "wilayah-editions.csv.gz");
export const curatedFile = (seedDir: string) => join(seedDir, "history-curated.csv");
/** The editions the API knows, oldest first (seed/editions.json): `npm run edition:add` appends to it. */
export const registryFile = (seedDir: string) => join(seedDir, "editions.json");

export type Edition = {
  id: string;
  /** The regulation that published it, as its source states it. */
  regulation: string;
  /** The decree's date (YYYY-MM-DD), for editions taken in with edition:add. */
  date?: string;
  /** The decree and its amendments, when the pages name them in parts. */
  decree?: string;
  amendments?: string[];
  /** Its list (`code,name`, gzip), relative to the seed directory; absent: sources/wilayah-editions.csv.gz. */
  file?: string;
  /** Where the region tables' names come from while it is current (a package release); absent: its own list. */
  regions?: string;
  /** When edition:add took it in (YYYY-MM-DD). */
  added?: string;
};
export type Registry = { about: string; editions: Edition[] };

export const readRegistry = (seedDir: string): Registry => JSON.parse(readFileSync(registryFile(seedDir), "utf8")) as Registry;

/** The editions, oldest first; the last is current. Bit i of an edition mask is editions[i]. */
export type Editions = readonly Edition[];
export type EditionId = string;
/** Every edition's bit set. */
export const allEditionsMask = (editions: Editions) => (1 << editions.length) - 1;

/**
 * What the region history is built from: the editions (oldest first, the last current), each one's
 * list (code -> name), and the curated links. `npm run edition:add` builds with its new edition
 * appended, before anything is written.
 */
export type HistoryInputs = { editions: Editions; lists: Map<EditionId, Map<string, string>>; curated: CuratedRow[] };

export function readHistoryInputs(seedDir: string): HistoryInputs {
  const { editions } = readRegistry(seedDir);
  return { editions, lists: readEditions(seedDir, editions), curated: readCurated(seedDir, editions) };
}

/** 1 provinsi, 2 kabupaten/kota, 3 kecamatan, 4 kelurahan/desa. */
export type LevelNo = 1 | 2 | 3 | 4;
/** A level's name by its number (LEVEL_NAMES[1] is provinsi): the one list of levels, counted from 1. */
export const LEVEL_NAMES = ["", ...LEVELS] as const;
export const levelNo = (level: Level): LevelNo => (LEVELS.indexOf(level) + 1) as LevelNo;
export const levelOfCode = (code: string): LevelNo => levelNo(levelOf(code));
export const parentOf = (code: string) => (code.includes(".") ? code.slice(0, code.lastIndexOf(".")) : null);
export const lastSegment = (code: string) => code.slice(code.lastIndexOf(".") + 1);
/**
 * The same number within the parent: a village's last three digits (its first digit tells
 * kelurahan 1, desa 2, desa adat 3, which a change of status alters), a whole segment above.
 */
export const level4 = (code: string) => levelOfCode(code) === 4;
export const sameSuffix = (a: string, b: string) =>
  levelOfCode(a) === 4 ? lastSegment(a).slice(1) === lastSegment(b).slice(1) : lastSegment(a) === lastSegment(b);

export type Basis = "curated" | "same_name" | "same_name_elsewhere" | "children" | "split" | "similar_name" | "name_part";
export type Change = "created" | "retired" | "renamed" | "recoded" | "split" | "merged";
export const CHANGES: readonly Change[] = ["created", "retired", "renamed", "recoded", "split", "merged"];

// ---------------------------------------------------------------- parsing

/** One CSV record's fields (RFC 4180 quoting: `"a, b"`, `""` inside quotes). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let s = "";
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) throw new Error(`CSV: unterminated quote in ${JSON.stringify(line)}`);
        s += line.slice(i, q);
        if (line[q + 1] === '"') {
          s += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      out.push(s);
      if (i < line.length && line[i] !== ",") throw new Error(`CSV: text after a closing quote in ${JSON.stringify(line)}`);
      i++;
    } else {
      const c = line.indexOf(",", i);
      const end = c < 0 ? line.length : c;
      out.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

const CODE = /^\d{2}(\.\d{2}(\.\d{2}(\.\d{4})?)?)?$/;

/** edition -> code -> name, from the `edition,code,name` CSV. Throws naming the line on anything malformed or repeated. */
export function parseEditions(csv: string, editions: Editions): Map<EditionId, Map<string, string>> {
  const lines = csv.split(/\r?\n/);
  if (lines[0] !== "edition,code,name") throw new Error(`editions CSV: line 1 must be "edition,code,name", got "${lines[0]}"`);
  const out = new Map<EditionId, Map<string, string>>(editions.filter((e) => !e.file).map((e) => [e.id, new Map()]));
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === "") continue;
    const f = csvFields(lines[i]);
    const list = out.get(f[0]);
    if (f.length !== 3 || !list || !CODE.test(f[1]) || f[2].trim() === "") throw new Error(`editions CSV: line ${i + 1} rejected: ${lines[i]}`);
    if (list.has(f[1])) throw new Error(`editions CSV: line ${i + 1}: ${f[1]} repeated in edition ${f[0]}`);
    list.set(f[1], f[2]);
  }
  return out;
}

/** An added edition's list as edition:add writes it: `code,name`, dotted codes, names as stored. */
export function parseEditionList(csv: string, label: string): Map<string, string> {
  const lines = csv.split(/\r?\n/);
  if (lines[0] !== "code,name") throw new Error(`${label}: line 1 must be "code,name"`);
  const out = new Map<string, string>();
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === "") continue;
    const f = csvFields(lines[i]);
    if (f.length !== 2 || !CODE.test(f[0]) || f[1].trim() === "" || out.has(f[0])) throw new Error(`${label}: line ${i + 1} rejected: ${lines[i]}`);
    out.set(f[0], f[1]);
  }
  return out;
}

/** Every edition's list, in the editions' order: the six of the sources file, then each added edition's own file. */
export function readEditions(seedDir: string, editions: Editions = readRegistry(seedDir).editions): Map<EditionId, Map<string, string>> {
  const out = parseEditions(gunzipSync(readFileSync(editionsFile(seedDir))).toString("utf8"), editions);
  for (const e of editions) {
    if (!e.file) continue;
    const path = join(seedDir, e.file);
    if (!existsSync(path)) throw new Error(`edition ${e.id}: ${path} is missing (seed/editions.json names it)`);
    out.set(e.id, parseEditionList(gunzipSync(readFileSync(path)).toString("utf8"), e.file));
  }
  return new Map(editions.map((e) => [e.id, out.get(e.id) ?? new Map()]));
}

/** The current edition's codes when it brings its own list (edition:add); null for edition 2025 (the package release). */
export function currentListCodes(seedDir: string): Set<string> | null {
  const { editions } = readRegistry(seedDir);
  const cur = editions[editions.length - 1];
  return cur.file ? new Set(parseEditionList(gunzipSync(readFileSync(join(seedDir, cur.file))).toString("utf8"), cur.file).keys()) : null;
}

/**
 * A row of seed/history-curated.csv. `successor`: old_code left the list in `edition` and its region
 * is new_code from then on. `part`: new_code first appears in `edition`, formed from part of old_code,
 * which stays (a province split off from Papua).
 */
export type CuratedRow = { edition: EditionId; oldCode: string; newCode: string; relation: "successor" | "part"; source: string };

export function parseCurated(csv: string, editions: Editions): CuratedRow[] {
  const later = new Set(editions.slice(1).map((e) => e.id));
  const lines = csv.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines[0] !== "edition,old_code,new_code,relation,source") throw new Error(`curated CSV: line 1 must be "edition,old_code,new_code,relation,source"`);
  return lines.slice(1).map((line, i) => {
    const [edition, oldCode, newCode, relation, source, ...rest] = csvFields(line);
    if (
      !later.has(edition) ||
      !CODE.test(oldCode) ||
      !CODE.test(newCode) ||
      (relation !== "successor" && relation !== "part") ||
      !source?.trim() ||
      rest.length
    ) {
      throw new Error(`curated CSV: line ${i + 2} rejected (a later edition, two codes, successor|part and a source are required): ${line}`);
    }
    return { edition: edition as EditionId, oldCode, newCode, relation, source };
  });
}

export const readCurated = (seedDir: string, editions: Editions = readRegistry(seedDir).editions) =>
  parseCurated(readFileSync(curatedFile(seedDir), "utf8"), editions);
