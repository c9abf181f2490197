/**
 * Old spellings of Indonesian names (Van Ophuijsen 1901, Soewandi 1947) read in today's spelling
 * (EYD, 1972): `soerabaja` -> `surabaya`, `tjirebon` -> `cirebon`, `bandjar` -> `banjar`. Pure.
 *
 * The letter groups and what EYD writes for them:
 *   oe -> u   (Soewandi already: Soerabaja -> Surabaja)
 *   dj -> j,  tj -> c,  ch -> kh
 *   j  -> y   (the old `j` is today's `y`; `nj` -> `ny` and `sj` -> `sy` are this rule after n/s)
 * `dj` and `tj` are read before `j`, so their `j` never becomes `y`. Every group may also stand as
 * typed: `j` and `ch` are ambiguous (a modern `j`, a loanword's `ch`), and old names keep some old
 * groups. So each combination of rewritten groups is a candidate, and only candidates that are a
 * word of the vocabulary (or, for the word being typed, start one) are offered: a rewrite that makes
 * no known word can find nothing.
 */
import { knownWord, type Lexicon } from "./lexicon.ts";

const GROUPS: [old: string, modern: string][] = [
  ["oe", "u"],
  ["dj", "j"],
  ["tj", "c"],
  ["ch", "kh"],
  ["j", "y"],
];

/** At most this many old groups in one word are combined (2^6 candidates); beyond, all or none. */
const MAX_COMBINED = 6;
/** Candidates offered per word. */
export const SPELLING_CANDIDATES = 2;

type Group = { at: number; length: number; modern: string };

/** The old letter groups of a word, left to right, longest first at each position. */
function oldGroups(word: string): Group[] {
  const out: Group[] = [];
  for (let i = 0; i < word.length; ) {
    const g = GROUPS.find(([old]) => word.startsWith(old, i));
    if (g) {
      out.push({ at: i, length: g[0].length, modern: g[1] });
      i += g[0].length;
    } else i++;
  }
  return out;
}

function rewrite(word: string, groups: Group[], mask: number): string {
  let out = "";
  let from = 0;
  groups.forEach((g, k) => {
    if (!(mask & (1 << k))) return;
    out += word.slice(from, g.at) + g.modern;
    from = g.at + g.length;
  });
  return out + word.slice(from);
}

/**
 * Today's spellings of a normalised word written in an old spelling, best first, at most
 * SPELLING_CANDIDATES: vocabulary words before mere prefixes (`last`: the word being typed), then
 * the candidates rewriting the most groups (an old name is usually old throughout), then the most
 * used. Cost: at most 2^6 candidate strings, one or two binary searches each.
 */
export function modernSpellings(word: string, lexicon: Lexicon, opts: { last?: boolean; max?: number } = {}): string[] {
  if (!/^[a-z]+$/.test(word)) return [];
  const groups = oldGroups(word);
  if (groups.length === 0) return [];
  const all = (1 << Math.min(groups.length, 31)) - 1;
  const masks = groups.length <= MAX_COMBINED ? Array.from({ length: all }, (_, i) => i + 1) : [all];
  const found: { w: string; whole: boolean; rewritten: number; uses: number }[] = [];
  for (const mask of masks) {
    const w = rewrite(word, groups, mask);
    const whole = lexicon.has(w);
    if (!whole && !(opts.last && knownWord(lexicon, w, true))) continue;
    found.push({ w, whole, rewritten: popcount(mask), uses: whole ? lexicon.uses(w) : 0 });
  }
  found.sort((a, b) => Number(b.whole) - Number(a.whole) || b.rewritten - a.rewritten || b.uses - a.uses || (a.w < b.w ? -1 : 1));
  return found.slice(0, opts.max ?? SPELLING_CANDIDATES).map((f) => f.w);
}

function popcount(n: number): number {
  let c = 0;
  for (; n; n &= n - 1) c++;
  return c;
}

/**
 * A name in today's spelling written as before 1972 and 1947 (the reverse of the rules above):
 * u -> oe, j -> dj, c -> tj, kh -> ch, y -> j (so ny -> nj, sy -> sj). For the quality set
 * (scripts/search-queries-names.ts) and tests: `surabaya` -> `soerabaja`.
 */
export function oldSpellingOf(modern: string): string {
  let out = "";
  for (let i = 0; i < modern.length; i++) {
    const c = modern[i];
    if (c === "k" && modern[i + 1] === "h") {
      out += "ch";
      i++;
    } else out += c === "u" ? "oe" : c === "j" ? "dj" : c === "c" ? "tj" : c === "y" ? "j" : c;
  }
  return out;
}
