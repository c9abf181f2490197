/**
 * The curated name table (seed/name-table.csv, checked and written as seed/name-table.json by the
 * seed build: scripts/seed/name-table.ts): short forms and historic names people write for a word
 * or a region, each with a source. Pure; the table is handed in, parsed once.
 *
 * Kinds:
 * - generic: an abbreviation of a common word of names or addresses (`tg` Tanjung, `kp` Kampung,
 *   `kec` Kecamatan, `jl` Jalan), no region;
 * - abbreviation: a short form of one place's name (`sby` Surabaya), with the region it means;
 * - historic: a colonial or former name (`buitenzorg` Kota Bogor), with the region it means;
 * - variant: two spellings of one word of names, both in official names (`sei` and `sungai`: Sei
 *   Rampah, Sungai Raya; Minang `bukik` and `bukit`), no region: read both ways, even where the word
 *   as typed is a name word (one row per direction).
 * An entry is a word rewrite: `typed` (one or more words) reads as `reads` wherever it stands in a
 * query (`kab bdg` -> `kab bandung`, `jl merdeka sby` -> `jl merdeka surabaya`).
 */

export const NAME_KINDS = ["generic", "variant", "abbreviation", "historic"] as const;
export type NameKind = (typeof NAME_KINDS)[number];

export type NameEntry = {
  /** Normalised words as typed, without trailing dots (`tg` stands for `tg` and `tg.`). */
  typed: string;
  /** Normalised words it reads as. */
  reads: string;
  kind: NameKind;
  /** The region an abbreviation or historic name means (none for generic entries). */
  id?: string;
};

/** Words naming an administrative level. */
export const LEVEL_WORDS: ReadonlySet<string> = new Set(["provinsi", "kabupaten", "kota", "kecamatan", "kelurahan", "desa"]);

/** Words of street addresses (`jl`, `gg`, `lr` read as them): address parsing sets such parts aside; search does not read them. */
export const STREET_WORDS: ReadonlySet<string> = new Set(["jalan", "gang", "lorong"]);

/**
 * The words the search planner reads as level hints (src/wilayah/search/plan.ts, ADMIN_WORDS, without
 * their dots): readings leave them to it. Kept equal to the planner's list by a test; the planner
 * could take them from here (the generic entries of the table reading as a level word).
 */
export const ADMIN_FORMS: ReadonlySet<string> = new Set([
  "kabupaten",
  "kab",
  "kota",
  "kecamatan",
  "kec",
  "kelurahan",
  "kel",
  "desa",
  "ds",
  "provinsi",
  "propinsi",
  "prov",
]);

/** seed/name-table.json: `[typed, reads, kind, id?]` per entry. */
export type NameTableJson = { entries: [string, string, NameKind, string?][] };

export class NameTable {
  readonly entries: readonly NameEntry[];
  private readonly byTyped = new Map<string, NameEntry>();
  /** The most words of any `typed`. */
  readonly maxWords: number;

  constructor(entries: NameEntry[]) {
    this.entries = entries;
    let max = 1;
    for (const e of entries) {
      this.byTyped.set(e.typed, e);
      max = Math.max(max, e.typed.split(" ").length);
    }
    this.maxWords = max;
  }

  static fromJson(json: NameTableJson): NameTable {
    return new NameTable(json.entries.map(([typed, reads, kind, id]) => ({ typed, reads, kind, ...(id ? { id } : {}) })));
  }

  /** The entry for these words (normalised, joined by single spaces), if any. */
  get(typed: string): NameEntry | undefined {
    return this.byTyped.get(typed);
  }
}
