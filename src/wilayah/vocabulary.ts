/**
 * The word vocabulary of the search index (every distinct word of every spelling, with the number
 * of regions using it), held in the isolate for typo handling. It ships with the Worker as
 * seed/vocabulary.json, written by the seed build from the same rows as seed/wilayah.sql (so the
 * data and its vocabulary change together, with a deploy); it is parsed on the first search with a
 * word of 4+ letters, and the padded-trigram index over it is built on the first possible typo.
 *
 * Why not in SQL (as it was, over `wilayah_vocab_grams`): the candidate query walked thousands of
 * index rows per word and needed a round trip of its own before the corrected search. Here a typo
 * costs a few thousand array reads in the isolate and the search stays one statement. The answers
 * are the same: same gate (a word that starts some vocabulary word is no typo), same candidates
 * (similar length, at least minSharedTrigrams shared, most shared first, then alphabetical, at most
 * TYPO_CANDIDATES per word).
 */
import seedVocabulary from "../../seed/vocabulary.json";
import { minSharedTrigrams, wordTrigrams } from "./search-plan";

/** At most this many candidates per word, those sharing the most trigrams (then alphabetical). */
export const TYPO_CANDIDATES = 300;

export type VocabRow = { w: string; n: number };

/** `word<TAB>count` lines. */
export function parseVocabulary(text: string): VocabRow[] {
  return text.split("\n").map((line) => {
    const tab = line.indexOf("\t");
    return { w: line.slice(0, tab), n: Number(line.slice(tab + 1)) };
  });
}

let shipped: Vocabulary | undefined;

/** The vocabulary shipped with the Worker, parsed once per isolate. */
export function vocabulary(): Vocabulary {
  shipped ??= new Vocabulary(parseVocabulary(seedVocabulary.text));
  return shipped;
}

export class Vocabulary {
  /** Sorted by code unit (the words are ASCII: the normalised name words). */
  private readonly words: string[];
  private readonly counts: Int32Array;
  private grams?: Map<string, Int32Array>;

  constructor(rows: VocabRow[]) {
    const sorted = [...rows].sort((a, b) => (a.w < b.w ? -1 : a.w > b.w ? 1 : 0));
    this.words = sorted.map((r) => r.w);
    this.counts = Int32Array.from(sorted, (r) => r.n);
  }

  get size(): number {
    return this.words.length;
  }

  /** Whether some word starts with `prefix` (itself included): such a word is matched, not a typo. */
  startsAWord(prefix: string): boolean {
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.words[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.words.length && this.words[lo].startsWith(prefix);
  }

  /**
   * Words of length within `edits` of `word` sharing at least minSharedTrigrams(word) of its padded
   * trigrams, most shared first, at most TYPO_CANDIDATES, with how many regions use each.
   */
  similarWords(word: string, edits: number): VocabRow[] {
    const index = this.trigramIndex();
    const shared = new Map<number, number>();
    const min = word.length - edits;
    const max = word.length + edits;
    for (const g of wordTrigrams(word)) {
      const ids = index.get(g);
      if (!ids) continue;
      for (const id of ids) {
        const len = this.words[id].length;
        if (len >= min && len <= max) shared.set(id, (shared.get(id) ?? 0) + 1);
      }
    }
    const need = minSharedTrigrams(word);
    return [...shared]
      .filter(([, n]) => n >= need)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0]) // ids follow the words' order: ties are alphabetical
      .slice(0, TYPO_CANDIDATES)
      .map(([id]) => ({ w: this.words[id], n: this.counts[id] }));
  }

  /** Word ids by padded trigram, for words of 3+ characters (shorter ones are never candidates). */
  private trigramIndex(): Map<string, Int32Array> {
    if (this.grams) return this.grams;
    const lists = new Map<string, number[]>();
    this.words.forEach((w, id) => {
      if (w.length < 3) return;
      for (const g of wordTrigrams(w)) {
        const list = lists.get(g);
        if (list) list.push(id);
        else lists.set(g, [id]);
      }
    });
    this.grams = new Map([...lists].map(([g, ids]) => [g, Int32Array.from(ids)]));
    return this.grams;
  }
}
