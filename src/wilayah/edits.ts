/**
 * How far a written word or name is from a region's, shared by search (src/wilayah/search: typo
 * candidates, the context fallback) and the address resolver (src/wilayah/addresses: corrected
 * phrases, the comparison without a lookup, a labelled kecamatan found by comparison). Pure; imports
 * only ./normalize, so the seed scripts can import it too.
 */
import { normalizeSearchText } from "./normalize.ts";

/** Damerau-Levenshtein distance (optimal string alignment: adjacent transpositions count as one edit). */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  let prev2: number[] = [];
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur.push(d);
    }
    prev2 = prev;
    prev = cur;
  }
  return prev[n];
}

/** Edits allowed for a word of this many characters: 1 for 4-7, 2 for 8 or more, none below 4. */
export function maxEdits(length: number): number {
  return length >= 8 ? 2 : length >= 4 ? 1 : 0;
}

/**
 * Whether `typed` is `meant` with one letter left out or two neighbours swapped: the commonest
 * slips of typing, which change no letter (a changed or added letter is one of 26 and rarely makes
 * another name). Among candidates at the same distance these come first: `wengi` is likelier
 * Wenigi (an `i` missed) than Wangi (an `a` typed as `e`), `salka` Salaka than Salak.
 */
export function isSlip(typed: string, meant: string): boolean {
  if (meant.length === typed.length + 1) {
    let i = 0;
    while (i < typed.length && typed[i] === meant[i]) i++;
    return typed.slice(i) === meant.slice(i + 1);
  }
  if (meant.length !== typed.length) return false;
  let i = 0;
  while (i < typed.length && typed[i] === meant[i]) i++;
  return i + 1 < typed.length && typed[i] === meant[i + 1] && typed[i + 1] === meant[i] && typed.slice(i + 2) === meant.slice(i + 2);
}

/** A word that may be meant where another was typed, and how near it is. */
export type NearWord = { w: string; n: number; d: number; slip: boolean };

/**
 * The words of `similar` (with how many regions use each) within `edits` of `typed`, likeliest
 * first: the closest, then a slip (isSlip) before a changed or added letter, then the most used.
 * Search's typo candidates and the address phrases' corrections both take them in this order.
 */
export function nearWords(typed: string, similar: { w: string; n: number }[], edits: number): NearWord[] {
  const out: NearWord[] = [];
  for (const c of similar) {
    const d = editDistance(typed, c.w);
    if (d > 0 && d <= edits) out.push({ w: c.w, n: c.n, d, slip: d === 1 && isSlip(typed, c.w) });
  }
  return out.sort((a, b) => a.d - b.d || Number(b.slip) - Number(a.slip) || b.n - a.n || (a.w < b.w ? -1 : 1));
}

/**
 * The nearest of a region's names (normalised here) to a name written with its context (after
 * `Kec.`, or before its kabupaten), within one edit per eight letters and at least one: more than
 * maxEdits allows a word alone, because the context has already narrowed the names to a few
 * hundred (`sinembah tnjng muda hulu` is Sinembah Tanjung Muda Hulu). Null when none is that near.
 */
export function nearContextName(written: string, names: string[]): { name: string; d: number } | null {
  const limit = Math.max(1, Math.floor(written.length / 8));
  let best: { name: string; d: number } | null = null;
  for (const name of new Set(names.map(normalizeSearchText))) {
    if (Math.abs(name.length - written.length) > limit) continue;
    const d = editDistance(written, name);
    if (d <= limit && (!best || d < best.d)) best = { name, d };
  }
  return best;
}
