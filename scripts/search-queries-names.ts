/**
 * The name-reading groups of the search quality set (issue 28), drawn from the seed with a fixed
 * random seed, never picked by hand; scripts/search-queries.ts (`npm run search:queries`) appends
 * them to test/fixtures/search-queries.json. Each query has the id it must find in the top 3.
 *
 * Which region a name means: a region whose name (alt_name for a kabupaten/kota) no other active
 * region of its level or a higher one bears (search ranks higher levels first among equal matches,
 * so the query means that region); and a query is dropped when it is itself the name of another
 * active region of that level or higher (it is then another name, not a way of writing this one).
 *
 * Groups:
 * - spacing: compound names of two vocabulary words, both directions. A name word that is two words
 *   joined, typed apart (`pematangsiantar` -> `pematang siantar`); two adjacent name words typed
 *   joined (`padang panjang` -> `padangpanjang`), unless the joined word is a word of another region's
 *   names. A "vocabulary word" here is one of COMPOUND_PART letters or more that COMPOUND_USES
 *   regions or more use (the vocabulary also holds one-off words such as `sela` or `tan`, which split
 *   `selatan`). Every such provinsi and kabupaten/kota, and PER_LEVEL drawn kecamatan and kelurahan
 *   per direction (every one would be some 18,000 queries).
 * - spelling: names with letters that spelt differently before 1972 (u, j, c, y, kh), written in the
 *   old spelling (src/wilayah/names/spelling.ts oldSpellingOf: `surabaya` -> `soerabaja`), when every
 *   changed word is no vocabulary word: 10 kabupaten/kota, 15 kecamatan, 15 kelurahan.
 * - short-form: every abbreviation of seed/name-table.csv (`sby`); and for each generic entry that
 *   search reads (`tg` Tanjung, `kodya`, `kotamadya`: not the planner's level words, not street
 *   words, and no vocabulary word: `kp`, `pd`, `ps` are words of official names, so search reads them
 *   as typed), GENERIC_DRAWS regions whose name has the word, with it abbreviated (`tg pinang`), or a
 *   kota with `kodya` / `kotamadya` before it.
 * - historic: every historic entry of seed/name-table.csv (`buitenzorg` -> Kota Bogor).
 * - variant (issue 35, random stream 35): for each variant entry, GENERIC_DRAWS regions whose name has the official
 *   word, written with the other (`sungai rampah` for Sei Rampah).
 * - context-typo (issue 35, random stream 36): CONTEXT_TYPOS kecamatan with one deletion or neighbour swap in the
 *   longest word that makes it a word of other names (`kujang` for Kunjang), with the kabupaten's
 *   name after it (`kujang kediri`): the misspellings of real writing, which search can only tell
 *   from the context.
 */

import { seeded } from "../src/lib/random.ts";
import { LEVELS, parentAt } from "../src/wilayah/codes.ts";
import { parseVocabulary, WordList } from "../src/wilayah/names/lexicon.ts";
import { oldSpellingOf } from "../src/wilayah/names/spelling.ts";
import { ADMIN_FORMS, STREET_WORDS } from "../src/wilayah/names/table.ts";
import { normalizeSearchText } from "../src/wilayah/normalize.ts";
import { nameWords } from "../src/wilayah/search/plan.ts";
import { SEED_DIR } from "./lib.ts";
import type { SeedResult } from "./seed/build.ts";
import { loadNameTable, readNameTableCsv, spellingsOf } from "./seed/name-table.ts";
import { loadAliases } from "./seed/search-index.ts";

/** One query of the search quality set (here, below search-queries.ts, so the two do not import each other). */
export type QualityQuery = { group: string; q: string; expected: string; all?: string[]; note?: string };

export const NAME_GROUPS = ["spacing", "spelling", "short-form", "historic", "variant", "context-typo"] as const;
const COMPOUND_PART = 4;
const COMPOUND_USES = 10;
const PER_LEVEL = 20;
const GENERIC_DRAWS = 5;
const CONTEXT_TYPOS = 20;

type SeedRow = SeedResult["rows"][number];
/** A region's level as a number, provinsi 1 to kelurahan 4: higher levels rank first. */
const rank = (r: SeedRow) => LEVELS.indexOf(r.level) + 1;

/** The groups, from the seed build's rows and vocabulary (scripts/seed/build.ts buildSeed). */
export function buildNameGroups({ rows, vocabulary }: Pick<SeedResult, "rows" | "vocabulary">): QualityQuery[] {
  const random = seeded(28);
  const lexicon = new WordList(parseVocabulary(JSON.parse(vocabulary).text));
  const active = rows.filter((r) => r.isActive === 1);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const termsOf = (r: SeedRow) => [...new Set([r.name, r.altName, ...r.aliases].map(normalizeSearchText))];
  /** The name as people search it: a kabupaten/kota without its prefix. */
  const nameOf = (r: SeedRow) => normalizeSearchText(r.level === "kabupaten" ? r.altName : r.name);
  // The highest level bearing each term (and how many regions bear it there); regions by word.
  const top = new Map<string, { level: number; n: number }>();
  const wordUsers = new Map<string, Set<string>>();
  for (const r of active) {
    const level = rank(r);
    for (const t of termsOf(r)) {
      const cur = top.get(t);
      if (!cur || level < cur.level) top.set(t, { level, n: 1 });
      else if (level === cur.level) cur.n++;
      for (const w of nameWords(t)) {
        const users = wordUsers.get(w) ?? new Set<string>();
        users.add(r.id);
        wordUsers.set(w, users);
      }
    }
  }
  /** `r` is the one region of its level or higher bearing its name. */
  const means = (r: SeedRow) => {
    const t = top.get(nameOf(r));
    return t !== undefined && t.level === rank(r) && t.n === 1;
  };
  /** `q` is no name of an active region of `r`'s level or higher (other than `r`). */
  const free = (q: string, r: SeedRow) => {
    const t = top.get(normalizeSearchText(q));
    return !t || t.level > rank(r) || (t.n === 1 && termsOf(r).includes(normalizeSearchText(q)));
  };
  const part = (w: string) => w.length >= COMPOUND_PART && lexicon.uses(w) >= COMPOUND_USES;
  const out: QualityQuery[] = [];
  const seen = new Set<string>();
  const add = (q: QualityQuery) => {
    if (seen.has(q.q)) return;
    seen.add(q.q);
    out.push(q);
  };
  /** All of `list` at provinsi and kabupaten levels, PER_LEVEL drawn at kecamatan and kelurahan. */
  const everyOrDrawn = <T extends { r: SeedRow }>(list: T[]): T[] => {
    const picked = list.filter((x) => x.r.level === "provinsi" || x.r.level === "kabupaten");
    for (const level of ["kecamatan", "kelurahan"] as const) {
      const pool = list.filter((x) => x.r.level === level);
      const taken = new Set<number>();
      for (let tries = 0; taken.size < Math.min(PER_LEVEL, pool.length) && tries < PER_LEVEL * 50; tries++) taken.add(Math.floor(random() * pool.length));
      picked.push(...[...taken].sort((a, b) => a - b).map((i) => pool[i]));
    }
    return picked;
  };

  // spacing, written apart: a compound name word typed as its two words.
  const apart: { r: SeedRow; q: string; note: string }[] = [];
  const together: { r: SeedRow; q: string; note: string }[] = [];
  for (const r of active) {
    if (!means(r)) continue;
    const words = nameOf(r).split(" ");
    words.forEach((w, i) => {
      if (!/^[a-z]+$/.test(w)) return;
      for (let k = COMPOUND_PART; k <= w.length - COMPOUND_PART; k++) {
        const a = w.slice(0, k);
        const b = w.slice(k);
        if (!part(a) || !part(b)) continue;
        const q = [...words.slice(0, i), a, b, ...words.slice(i + 1)].join(" ");
        if (free(q, r)) apart.push({ r, q, note: `${w} written apart` });
        break; // one split per word: the shortest first part
      }
      const next = words[i + 1];
      if (next !== undefined && /^[a-z]+$/.test(next) && part(w) && part(next)) {
        const joined = w + next;
        const users = wordUsers.get(joined);
        if (users && [...users].some((id) => id !== r.id)) return; // another region's word
        const q = [...words.slice(0, i), joined, ...words.slice(i + 2)].join(" ");
        if (free(q, r)) together.push({ r, q, note: `${w} ${next} written together` });
      }
    });
  }
  for (const x of [...everyOrDrawn(apart), ...everyOrDrawn(together)]) add({ group: "spacing", q: x.q, expected: x.r.id, note: x.note });

  // spelling: 10 kabupaten/kota, 15 kecamatan, 15 kelurahan in the old spelling.
  const unique = active.filter(means);
  for (const [level, n] of [
    ["kabupaten", 10],
    ["kecamatan", 15],
    ["kelurahan", 15],
  ] as const) {
    const pool = unique.filter((r) => r.level === level);
    let found = 0;
    for (let tries = 0; found < n && tries < n * 200; tries++) {
      const r = pool[Math.floor(random() * pool.length)];
      const words = nameOf(r).split(" ");
      const old = words.map((w) => (/^[a-z]+$/.test(w) ? oldSpellingOf(w) : w));
      const changed = old.filter((w, i) => w !== words[i]);
      if (changed.length === 0 || changed.some((w) => lexicon.has(w))) continue;
      const q = old.join(" ");
      if (seen.has(q) || !free(q, r)) continue;
      add({ group: "spelling", q, expected: r.id, note: nameOf(r) });
      found++;
    }
  }

  // short-form and historic: the table.
  const spellings = spellingsOf(rows);
  const aliases = new Set(loadAliases(SEED_DIR, new Set(byId.keys())).map((a) => normalizeSearchText(a.alias)));
  const table = loadNameTable(spellings, aliases, readNameTableCsv(SEED_DIR));
  for (const e of table) {
    if (e.id) {
      add({ group: e.kind === "historic" ? "historic" : "short-form", q: e.typed, expected: e.id, note: `${e.typed} = ${e.reads}` });
      continue;
    }
    // The planner's level words; streets are no regions; a vocabulary word is read as typed.
    if (ADMIN_FORMS.has(e.typed) || STREET_WORDS.has(e.reads) || lexicon.has(e.typed)) continue;
    const pool =
      e.reads === "kota"
        ? unique.filter((r) => r.level === "kabupaten" && r.type === "kota")
        : unique.filter((r) => r.level !== "provinsi" && nameOf(r).split(" ").includes(e.reads));
    let found = 0;
    for (let tries = 0; found < GENERIC_DRAWS && tries < GENERIC_DRAWS * 100 && pool.length > 0; tries++) {
      const r = pool[Math.floor(random() * pool.length)];
      const q =
        e.reads === "kota"
          ? `${e.typed} ${nameOf(r)}`
          : nameOf(r)
              .split(" ")
              .map((w) => (w === e.reads ? e.typed : w))
              .join(" ");
      if (seen.has(q) || !free(q, r)) continue;
      add({ group: "short-form", q, expected: r.id, note: `${e.typed} = ${e.reads}` });
      found++;
    }
  }

  // Issue 35, with a random stream of its own (the groups above stay as they were).
  const random35 = seeded(35);
  // variant: the table's variant spellings (`sungai` for an official Sei), GENERIC_DRAWS regions each.
  for (const e of table) {
    if (e.kind !== "variant") continue;
    const pool = unique.filter((r) => r.level !== "provinsi" && nameOf(r).split(" ").includes(e.reads));
    let found = 0;
    for (let tries = 0; found < GENERIC_DRAWS && tries < GENERIC_DRAWS * 100 && pool.length > 0; tries++) {
      const r = pool[Math.floor(random35() * pool.length)];
      const q = nameOf(r)
        .split(" ")
        .map((w) => (w === e.reads ? e.typed : w))
        .join(" ");
      if (seen.has(q) || !free(q, r)) continue;
      add({ group: "variant", q, expected: r.id, note: `${e.typed} for ${e.reads}` });
      found++;
    }
  }
  // context-typo: a kecamatan with one edit in its longest word that makes it another name's word
  // (`kujang` for Kunjang: search cannot tell it is a typo by the word alone), with its kabupaten.
  // A stream of its own again: the variant entries can change without redrawing these.
  const random36 = seeded(36);
  const kecamatan = active.filter((r) => r.level === "kecamatan");
  let drawn = 0;
  for (let tries = 0; drawn < CONTEXT_TYPOS && tries < CONTEXT_TYPOS * 400; tries++) {
    const r = kecamatan[Math.floor(random36() * kecamatan.length)];
    const kab = byId.get(parentAt(r.id, "kabupaten"));
    if (!kab) continue;
    const words = nameOf(r).split(" ");
    const longest = words.reduce((a, w) => (w.length > a.length ? w : a), "");
    if (!/^[a-z]{5,}$/.test(longest)) continue;
    const i = Math.floor(random36() * longest.length);
    const edits = [longest.slice(0, i) + longest.slice(i + 1), longest.slice(0, i) + longest[i + 1] + longest[i] + longest.slice(i + 2)].filter(
      (w) => w.length >= 4 && w !== longest && lexicon.has(w),
    );
    if (edits.length === 0) continue;
    const q = `${words.map((w) => (w === longest ? edits[0] : w)).join(" ")} ${normalizeSearchText(kab.altName)}`;
    // Another kecamatan of the kabupaten (or anything of its name) would be a right answer: only unique names.
    if (seen.has(q) || kecamatan.some((k) => k.id !== r.id && k.id.startsWith(kab.id) && nameOf(k) === words.join(" "))) continue;
    add({ group: "context-typo", q, expected: r.id, note: `${longest} written ${edits[0]}, with its kabupaten` });
    drawn++;
  }
  return out;
}
