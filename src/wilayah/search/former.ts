/**
 * Whether a search match came from a name of an earlier edition only (`match.former`). The seed
 * indexes those names among a region's terms and lists them apart (wilayah_former); a row is former
 * when none of its current spellings matches the matched words as well as the row's match type says.
 */
import { TERM_SEPARATOR } from "../normalize";
import type { MatchType } from "./protocol";

const TIER: Partial<Record<MatchType, number>> = { exact: 0, prefix: 1, word: 2, substring: 3 };

/** How `q` matches inside one normalised spelling, as the suffix index ranks it: 0 the whole spelling, 1 its start, 2 a word start, 3 inside a word, 4 not at all. */
export function tierIn(term: string, q: string): number {
  if (term === q) return 0;
  if (term.startsWith(q)) return 1;
  let inside = false;
  for (let i = term.indexOf(q, 1); i > 0; i = term.indexOf(q, i + 1)) {
    // a word starts after an ASCII character other than a-z 0-9 (the seed's rule for wilayah_grams.k)
    const before = term.charCodeAt(i - 1);
    if (before < 128 && !/[a-z0-9]/.test(term[i - 1])) return 2;
    inside = true;
  }
  return inside ? 3 : 4;
}

/** `terms`: every spelling of the region between separators; `former`: those that are former names only. */
export function matchedFormer(terms: string | null, former: string | null, q: string | null, type: MatchType): boolean {
  const tier = TIER[type];
  if (!terms || !former || q === null || tier === undefined) return false;
  const old = new Set(former.split(TERM_SEPARATOR));
  return !terms.split(TERM_SEPARATOR).some((t) => t !== "" && !old.has(t) && tierIn(t, q) <= tier);
}
