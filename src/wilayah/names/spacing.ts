/**
 * Compound names written apart or together: Kota Pematangsiantar typed `pematang siantar`, Kota
 * Padang Panjang typed `padangpanjang`. Pure; the vocabulary (every word of every indexed spelling)
 * is the judge of what a word is.
 * - split: a query word that is two vocabulary words joined (`pematangsiantar` would split too, but
 *   it is a word itself and is read as typed: see readings.ts);
 * - join: two adjacent query words whose concatenation is a vocabulary word (`bukit tinggi`).
 * For the word being typed (`last`), the second part may be the start of a word (`padangpane`).
 */
import type { Lexicon } from "./lexicon.ts";

/** Parts of a split are at least this long: shorter ones (`ci`, `ma`) split almost any word. */
export const MIN_PART = 3;
/** Splits offered per word. */
export const SPLIT_CANDIDATES = 2;
/**
 * Each part of a split is a word of at least this many regions' names: the vocabulary also holds
 * one-off words (`dun`, `kura`, `teh`) that would split typos (`dunili`, `kuranij`) into readings
 * that find nothing and cost a statement's worth of SQL.
 */
export const SPLIT_MIN_USES = 3;
/** A second part that is only the start of a word (the word being typed) has this many letters. */
export const MIN_PREFIX_PART = 4;

const LETTERS = /^[a-z]+$/;

/**
 * The ways `word` is two vocabulary words (each used by SPLIT_MIN_USES regions or more), best
 * first, at most SPLIT_CANDIDATES: both parts whole
 * words before a prefix second part, then the split whose rarer part is the most used, then the
 * longer first part. Cost: one position per letter (minus 2 * MIN_PART), at most three binary
 * searches each.
 */
export function splitWord(word: string, lexicon: Lexicon, opts: { last?: boolean; max?: number } = {}): [string, string][] {
  if (!LETTERS.test(word) || word.length < 2 * MIN_PART) return [];
  const found: { a: string; b: string; whole: boolean; weight: number }[] = [];
  for (let i = MIN_PART; i <= word.length - MIN_PART; i++) {
    const a = word.slice(0, i);
    const usesA = lexicon.uses(a);
    if (usesA < SPLIT_MIN_USES) continue;
    const b = word.slice(i);
    const usesB = lexicon.uses(b);
    const whole = usesB >= SPLIT_MIN_USES;
    if (!whole && !(opts.last && b.length >= MIN_PREFIX_PART && lexicon.startsAWord(b))) continue;
    found.push({ a, b, whole, weight: Math.min(usesA, whole ? usesB : 0) });
  }
  found.sort((x, y) => Number(y.whole) - Number(x.whole) || y.weight - x.weight || y.a.length - x.a.length);
  return found.slice(0, opts.max ?? SPLIT_CANDIDATES).map((f) => [f.a, f.b]);
}

/**
 * `a` and `b` as one vocabulary word (`bukit` + `tinggi` -> `bukittinggi`), or null. Both must be
 * words of letters, 2+ long; for the word being typed (`last`) the join may start a word when `b`
 * has MIN_PART letters or more. Cost: one or two binary searches.
 */
export function joinWords(a: string, b: string, lexicon: Lexicon, opts: { last?: boolean } = {}): string | null {
  if (a.length < 2 || b.length < 2 || !LETTERS.test(a) || !LETTERS.test(b)) return null;
  const w = a + b;
  if (lexicon.has(w)) return w;
  return opts.last && b.length >= MIN_PART && lexicon.startsAWord(w) ? w : null;
}
