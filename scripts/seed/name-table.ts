/**
 * seed/name-table.csv, the curated table of short forms and historic names (src/wilayah/names/table.ts
 * says what the kinds mean), checked like seed/aliases.csv, and written by the seed build
 * (scripts/seed/build.ts) for the Worker as seed/name-table.json (`nameTableJson`), which
 * src/wilayah/names/shipped.ts reads.
 *
 * Why a table of its own and not more rows of seed/aliases.csv: an alias is one more spelling of one
 * region, indexed as its name (`jaksel` finds Jakarta Selatan as an exact name). These entries are
 * word rewrites applied to the query: `bdg` must serve `kab bdg` and `kota bdg` alike, `tg` every
 * Tanjung, `kec` no region at all; and a reading says which kind it was (`match`), an alias cannot.
 * Historic names keep a region id all the same, so each is checked against the region it names.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { NAME_KINDS, type NameEntry, type NameTableJson } from "../../src/wilayah/names/table.ts";
import { normalizeSearchText } from "../../src/wilayah/normalize.ts";
import { csvFields } from "./search-index.ts";

export type NameTableRow = NameEntry & { source: string };

/** seed/name-table.csv of a seed directory, as text (`loadNameTable` checks it). */
export const readNameTableCsv = (seedDir: string) => readFileSync(join(seedDir, "name-table.csv"), "utf8");

const WORDS = /^[a-z0-9]+( [a-z0-9]+)*$/;

/**
 * seed/name-table.csv, checked: `typed` and `reads` are normalised words; a known kind and a source
 * on every row; generic and variant rows name no region; abbreviation and historic rows name a region of the
 * seed, and `reads` is one of that region's spellings (so the reading finds it); no `typed` twice,
 * none that seed/aliases.csv already has.
 * @param spellings region id -> its normalised spellings (name, alt_name, aliases)
 * @param aliases the normalised aliases of seed/aliases.csv
 */
export function loadNameTable(spellings: Map<string, string[]>, aliases: Set<string>, csv: string): NameTableRow[] {
  const lines = csv.split(/\r?\n/);
  if (lines[0].trim() !== "typed,reads,kind,id,source") throw new Error(`seed/name-table.csv: line 1 must be "typed,reads,kind,id,source"`);
  const out: NameTableRow[] = [];
  const seen = new Set<string>();
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === "") continue;
    const [typed = "", reads = "", kind = "", id = "", source = "", ...rest] = csvFields(lines[i]);
    const region = id ? spellings.get(id) : undefined;
    const why =
      rest.length > 0
        ? "too many columns"
        : !WORDS.test(typed) || normalizeSearchText(typed) !== typed
          ? "typed must be normalised words (lower case, letters and digits, single spaces, no dots)"
          : !WORDS.test(reads) || normalizeSearchText(reads) !== reads
            ? "reads must be normalised words"
            : typed === reads
              ? "reads equals typed"
              : !(NAME_KINDS as readonly string[]).includes(kind)
                ? `kind must be one of ${NAME_KINDS.join(", ")}`
                : !source.trim()
                  ? "no source"
                  : (kind === "generic" || kind === "variant") && id
                    ? `a ${kind} entry names no region (no id)`
                    : (kind === "abbreviation" || kind === "historic") && !id
                      ? `an ${kind} entry needs the id of the region it means`
                      : id && !region
                        ? `unknown region id "${id}"`
                        : region && !region.includes(reads)
                          ? `reads "${reads}" is none of the spellings of ${id} (${region.join(", ")})`
                          : seen.has(typed)
                            ? `"${typed}" is already in the table`
                            : aliases.has(typed)
                              ? `"${typed}" is already an alias in seed/aliases.csv`
                              : null;
    if (why) throw new Error(`seed/name-table.csv: line ${i + 1} ("${lines[i]}"): ${why}`);
    seen.add(typed);
    out.push({ typed, reads, kind: kind as NameEntry["kind"], ...(id ? { id } : {}), source });
  }
  return out;
}

/** seed/name-table.json, what the Worker needs of the table (no sources): `[typed, reads, kind, id?]`. */
export function nameTableJson(rows: NameEntry[]): string {
  const json: NameTableJson = { entries: rows.map((r) => (r.id ? [r.typed, r.reads, r.kind, r.id] : [r.typed, r.reads, r.kind])) };
  return `${JSON.stringify(json)}\n`;
}

/** Region id -> normalised spellings (name, alt_name, aliases and kind spellings), from seed rows. */
export function spellingsOf(rows: { id: string; name: string; altName: string; aliases: string[] }[]): Map<string, string[]> {
  return new Map(rows.map((r) => [r.id, [...new Set([r.name, r.altName, ...r.aliases].map(normalizeSearchText))]]));
}
