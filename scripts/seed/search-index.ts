/**
 * The search index beyond the suffix tables: aliases (seed/aliases.csv), ancestors for context
 * queries, postal codes (seed/sources/wilayah-postal-codes.csv), and the word vocabulary for typos
 * (seed/vocabulary.json, bundled into the Worker). Called by scripts/seed/build.ts; the tables are described
 * in migrations/0008_wilayah_search_context.sql, the matching rules in docs/api.md ("Search").
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Level } from "../../src/wilayah/codes.ts";
import { nameWords } from "../../src/wilayah/search/plan.ts";

export const ALIAS_KINDS = ["short", "popular", "former", "spelling"] as const;
export type Alias = { id: string; alias: string; kind: (typeof ALIAS_KINDS)[number]; source: string };

/** One CSV line: fields separated by commas, a field in double quotes may hold commas and "" for a quote. */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = "";
      i++;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          v += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else v += line[i++];
      }
      out.push(v);
      i++; // the comma
    } else {
      const end = line.indexOf(",", i);
      out.push(line.slice(i, end < 0 ? line.length : end));
      i = end < 0 ? line.length + 1 : end + 1;
    }
  }
  return out;
}

/** seed/aliases.csv of `seedDir`, checked: every row names a region of the seed, a kind and a source. */
export function loadAliases(seedDir: string, knownIds: Set<string>, csv = readFileSync(join(seedDir, "aliases.csv"), "utf8")): Alias[] {
  const lines = csv.split(/\r?\n/);
  if (lines[0].trim() !== "id,alias,kind,source") throw new Error(`seed/aliases.csv: line 1 must be "id,alias,kind,source"`);
  const out: Alias[] = [];
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    const [id, alias, kind, source, ...rest] = csvFields(lines[i]);
    const why = !knownIds.has(id)
      ? `unknown region id "${id}"`
      : !alias?.trim()
        ? "empty alias"
        : !(ALIAS_KINDS as readonly string[]).includes(kind)
          ? `kind must be one of ${ALIAS_KINDS.join(", ")}`
          : !source?.trim()
            ? "no source"
            : rest.length > 0
              ? "too many columns"
              : null;
    if (why) throw new Error(`seed/aliases.csv: line ${i + 1} ("${lines[i]}"): ${why}`);
    out.push({ id, alias: alias.trim(), kind: kind as Alias["kind"], source });
  }
  return out;
}

/** Village id -> postal code, from the copied source (see seed/sources/README.md). */
export function loadPostalCodes(seedDir: string, csv = readFileSync(join(seedDir, "sources", "wilayah-postal-codes.csv"), "utf8")): Map<string, string> {
  const out = new Map<string, string>();
  const lines = csv.split(/\r?\n/);
  if (lines[0].trim() !== "code,postal_code") throw new Error("wilayah-postal-codes.csv: line 1 must be code,postal_code");
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "") continue;
    const [code, postal] = line.split(",");
    if (!/^\d{2}\.\d{2}\.\d{2}\.\d{4}$/.test(code) || !/^\d{5}$/.test(postal))
      throw new Error(`wilayah-postal-codes.csv: line ${i + 1} ("${line}") is not code,postal_code`);
    out.set(code, postal);
  }
  return out;
}

/**
 * Extra spellings the index adds for every region: for the five Jakarta cities and Kepulauan Seribu
 * (`Kota Administrasi ...`, `Kabupaten Administrasi ...`) the name as people write it with its
 * kind, `Kota Jakarta Selatan`, so `kota`/`kabupaten` in a query keep matching.
 */
export function kindSpellings(level: Level, name: string, altName: string): string[] {
  if (level !== "kabupaten") return [];
  const m = /^(Kabupaten|Kota) Administrasi /.exec(name);
  return m ? [`${m[1]} ${altName}`] : [];
}

type Indexed = { ord: number; id: string; level: Level; terms: string[] };

/** Multi-row INSERTs below D1's 100 KB statement limit. */
function inserts(table: string, columns: string, tuples: string[]): string {
  let out = "";
  for (let i = 0; i < tuples.length; i += 3000) out += `INSERT INTO ${table} (${columns}) VALUES ${tuples.slice(i, i + 3000).join(",")};\n`;
  return out;
}

/**
 * seed/vocabulary.json, every distinct word of every spelling with the number of regions using it,
 * sorted, for the Worker's typo handling (src/wilayah/search/vocabulary.ts): one string of
 * `word<TAB>count` lines, so loading the module costs one string, not 48,000 objects.
 */
export function vocabularyJson(rows: { terms: string[] }[]): string {
  const vocab = new Map<string, number>();
  for (const r of rows) for (const w of new Set(r.terms.flatMap(nameWords))) vocab.set(w, (vocab.get(w) ?? 0) + 1);
  const words = [...vocab].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return `${JSON.stringify({ text: words.map(([w, n]) => `${w}\t${n}`).join("\n") })}\n`;
}

export const SEARCH_INDEX_TABLES = ["wilayah_postal", "wilayah_anc"];

/**
 * SQL that fills the tables of migrations/0009 after `wilayah_search` is loaded. Ancestors are
 * computed inside D1 (INSERT ... SELECT), so the dump stays small.
 */
export function searchIndexSql(rows: Indexed[], postal: Map<string, string>): string {
  let sql = "";
  // Ancestors by id prefix: 32 / 32.73 / 32.73.09 are the ancestors of 32.73.09.1001.
  for (const [len, level] of [
    [2, 1],
    [5, 2],
    [8, 3],
  ] as const) {
    sql += `INSERT INTO wilayah_anc (r, a) SELECT c.ord, p.ord FROM wilayah_search c JOIN wilayah_search p ON p.id = substr(c.id, 1, ${len}) AND p.level = ${level} WHERE c.level > ${level};\n`;
  }
  const byId = new Map(rows.map((r) => [r.id, r.ord]));
  const tuples: string[] = [];
  for (const [id, code] of [...postal].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0))) {
    const ord = byId.get(id);
    if (ord !== undefined) tuples.push(`('${code}',${ord})`);
  }
  sql += inserts("wilayah_postal", "postal, r", tuples);
  return sql;
}
