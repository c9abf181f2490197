/** How the region history compares names (moved from history.ts): name keys, edit distance, similarity. */
import { type LevelNo, levelOfCode } from "./history-editions.ts";

// ---------------------------------------------------------------- names

/**
 * The name as compared between editions: case, accents, spacing and punctuation ignored, the
 * editions' abbreviations spelled out (`KAB.`, `ADM.`, `KEP.`, `DKI`), and a kabupaten/kota keeps its
 * kind, so that Kota Sorong and Kabupaten Sorong stay two names.
 */
export function nameKey(level: LevelNo, name: string): string {
  // most names repeat in every edition: each is worked out once
  const memo = `${level}${name}`;
  let key = nameKeys.get(memo);
  if (key === undefined) {
    key = computeNameKey(level, name);
    nameKeys.set(memo, key);
  }
  return key;
}
const nameKeys = new Map<string, string>();

/** code -> nameKey of its name, for one edition's list. */
export const nameKeysOf = (list: Map<string, string>) => new Map([...list].map(([code, name]) => [code, nameKey(levelOfCode(code), name)]));

function computeNameKey(level: LevelNo, name: string): string {
  let s = name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
  s = s.replace(/\bkep\.\s*/g, "kepulauan ").replace(/^dki\b/, "daerah khusus ibukota");
  let kind = "";
  if (level === 2) {
    const m = /^(kabupaten|kab\.?|kota)(\s+(administrasi|adm\.?))?\s+/.exec(s);
    kind = m?.[1] === "kota" ? "kota:" : "kabupaten:";
    if (m) s = s.slice(m[0].length);
  }
  // Papua's customary villages (2022b) carry the prefix in their name; the place is the same.
  if (level === 4) s = s.replace(/^desa adat\s+/, "");
  // A number after a word: `Dagai Dua`, `Dagai II` and `Dagai 2` are one name, `Simpang Empat Tanjung`
  // and `Simpang IV Tanjung` too. Between words of two letters or more only, so that the spaced
  // letters of `R a i n i s` stay letters.
  s = s.replace(/\s*([-/])\s*/g, "$1");
  s = s.replace(/(?<=[a-z0-9]{2}[ -])(i{1,3}|iv|vi{0,3}|ix|x|satu|dua|tiga|empat|lima|enam|tujuh|delapan|sembilan|sepuluh)(?=$|[ /-][a-z0-9]{2})/g, (w) =>
    String(NUMBER_WORDS[w]),
  );
  return kind + s.replace(/[^a-z0-9]/g, "");
}

const NUMBER_WORDS: Record<string, number> = {
  ...Object.fromEntries(["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"].map((w, i) => [w, i + 1])),
  ...Object.fromEntries(["satu", "dua", "tiga", "empat", "lima", "enam", "tujuh", "delapan", "sembilan", "sepuluh"].map((w, i) => [w, i + 1])),
};

/** Levenshtein distance (names are short: plain two-row dynamic programming). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The smallest edit distance between `part` and any stretch of `whole` (Sellers): how far `part`
 * is from appearing inside `whole`. Villages merged into one are often named by joining their names.
 */
export function partDistance(part: string, whole: string): number {
  let prev = new Array<number>(whole.length + 1).fill(0);
  for (let i = 1; i <= part.length; i++) {
    const cur = [i];
    for (let j = 1; j <= whole.length; j++) cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (part[i - 1] === whole[j - 1] ? 0 : 1));
    prev = cur;
  }
  return Math.min(...prev);
}

/** 1 for equal keys, 0 for nothing in common: 1 - distance / longer length. */
export const similarity = (a: string, b: string) => (a.length || b.length ? 1 - editDistance(a, b) / Math.max(a.length, b.length) : 1);

/** Below this similarity a spelling is not taken for the same name. */
export const SIMILAR_MIN = 0.75;
/** `name_part`: the old name (at least this many letters) inside a new name at least this much longer ... */
export const PART_MIN_LENGTH = 5;
/** ... within this similarity (1 - distance / old length). */
export const PART_MIN = 0.85;
/** The best similar name must beat the second best by this much, or nothing is picked. */
export const SIMILAR_MARGIN = 0.1;
