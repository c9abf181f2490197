/**
 * The region history's inputs (moved from history.ts): the six editions, code levels, and the
 * parsing of the editions file and the curated links.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const EDITIONS_FILE = join(ROOT, "seed", "sources", "wilayah-editions.csv.gz");
export const CURATED_FILE = join(ROOT, "seed", "history-curated.csv");

/** The six editions, oldest first; the regulation of each as the source repository states it. */
export const EDITIONS = [
  { id: "2015", regulation: "Permendagri 56/2015" },
  { id: "2017", regulation: "Permendagri 137/2017" },
  { id: "2020", regulation: "Permendagri 72/2019 as revised by Kepmendagri 146.1-4717/2020" },
  { id: "2022", regulation: "Permendagri 58/2021 as revised by Kepmendagri 050-145/2022" },
  { id: "2022b", regulation: "Kepmendagri 100.1.1-6117/2022" },
  { id: "2025", regulation: "Kepmendagri 300.2.2-2138/2025 as amended by 300.2.2-2430/2025" },
] as const;
export type EditionId = (typeof EDITIONS)[number]["id"];
export const EDITION_INDEX = new Map<string, number>(EDITIONS.map((e, i) => [e.id, i]));
export const CURRENT = EDITIONS.length - 1;
/** Bit i of an edition mask is EDITIONS[i]. */
export const ALL_EDITIONS_MASK = (1 << EDITIONS.length) - 1;

/** 1 provinsi, 2 kabupaten/kota, 3 kecamatan, 4 kelurahan/desa. */
export type LevelNo = 1 | 2 | 3 | 4;
export const LEVEL_NAMES = ["", "provinsi", "kabupaten", "kecamatan", "kelurahan"] as const;
const LEVEL_BY_LENGTH: Record<number, LevelNo> = { 2: 1, 5: 2, 8: 3, 13: 4 }; // 32, 32.73, 32.73.09, 32.73.09.1001
export const levelOfCode = (code: string): LevelNo => LEVEL_BY_LENGTH[code.length] ?? (code.split(".").length as LevelNo);
export const parentOf = (code: string) => (code.includes(".") ? code.slice(0, code.lastIndexOf(".")) : null);
export const lastSegment = (code: string) => code.slice(code.lastIndexOf(".") + 1);
/** The province, kabupaten or kecamatan prefix of a code (`level` 1-3), or the code itself when shorter. */
export const ancestorAt = (code: string, level: number) => code.split(".").slice(0, level).join(".");
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
export function parseEditions(csv: string): Map<EditionId, Map<string, string>> {
  const lines = csv.split(/\r?\n/);
  if (lines[0] !== "edition,code,name") throw new Error(`editions CSV: line 1 must be "edition,code,name", got "${lines[0]}"`);
  const out = new Map<EditionId, Map<string, string>>(EDITIONS.map((e) => [e.id, new Map()]));
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === "") continue;
    const f = csvFields(lines[i]);
    const list = out.get(f[0] as EditionId);
    if (f.length !== 3 || !list || !CODE.test(f[1]) || f[2].trim() === "") throw new Error(`editions CSV: line ${i + 1} rejected: ${lines[i]}`);
    if (list.has(f[1])) throw new Error(`editions CSV: line ${i + 1}: ${f[1]} repeated in edition ${f[0]}`);
    list.set(f[1], f[2]);
  }
  return out;
}

export const readEditions = (file = EDITIONS_FILE) => parseEditions(gunzipSync(readFileSync(file)).toString("utf8"));

/**
 * A row of seed/history-curated.csv. `successor`: old_code left the list in `edition` and its region
 * is new_code from then on. `part`: new_code first appears in `edition`, formed from part of old_code,
 * which stays (a province split off from Papua).
 */
export type CuratedRow = { edition: EditionId; oldCode: string; newCode: string; relation: "successor" | "part"; source: string };

export function parseCurated(csv: string): CuratedRow[] {
  const lines = csv.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines[0] !== "edition,old_code,new_code,relation,source") throw new Error(`curated CSV: line 1 must be "edition,old_code,new_code,relation,source"`);
  return lines.slice(1).map((line, i) => {
    const [edition, oldCode, newCode, relation, source, ...rest] = csvFields(line);
    if (
      !EDITION_INDEX.get(edition) ||
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

export const readCurated = (file = CURATED_FILE) => parseCurated(readFileSync(file, "utf8"));
