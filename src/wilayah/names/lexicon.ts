/**
 * What name reading needs to know of the search vocabulary (every word of every indexed spelling,
 * with the number of regions using it: seed/vocabulary.json): whether a word is one, whether a
 * prefix starts one, and how many regions use a word. WordList answers these over the sorted words;
 * the Worker's vocabulary (src/wilayah/search/vocabulary.ts, class Vocabulary) is a WordList with
 * the typo index added, so search and address parsing read names against the very words they search.
 */
export interface Lexicon {
  /** `word` is a word of some indexed spelling. */
  has(word: string): boolean;
  /** Some word starts with `prefix` (itself included). */
  startsAWord(prefix: string): boolean;
  /** How many regions use `word` (0 when it is none). */
  uses(word: string): number;
}

export type WordCount = { w: string; n: number };

/** seed/vocabulary.json's `text`: `word<TAB>count` lines. */
export function parseVocabulary(text: string): WordCount[] {
  return text.split("\n").map((line) => {
    const tab = line.indexOf("\t");
    return { w: line.slice(0, tab), n: Number(line.slice(tab + 1)) };
  });
}

export class WordList implements Lexicon {
  /** Sorted by code unit (the words are ASCII: the normalised name words). */
  protected readonly words: string[];
  protected readonly counts: Int32Array;

  /** Rows in any order (sorted here by code unit). */
  constructor(rows: WordCount[]) {
    // The seed build writes the words sorted: checking costs less than sorting again.
    const sorted = rows.every((r, i) => i === 0 || rows[i - 1].w < r.w) ? rows : [...rows].sort((a, b) => (a.w < b.w ? -1 : a.w > b.w ? 1 : 0));
    this.words = sorted.map((r) => r.w);
    this.counts = Int32Array.from(sorted, (r) => r.n);
  }

  get size(): number {
    return this.words.length;
  }

  /** Index of the first word >= `w`. */
  private lowerBound(w: string): number {
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.words[mid] < w) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  has(word: string): boolean {
    return this.words[this.lowerBound(word)] === word;
  }

  /** Whether some word starts with `prefix` (itself included): such a word is matched, not a typo. */
  startsAWord(prefix: string): boolean {
    const i = this.lowerBound(prefix);
    return i < this.words.length && this.words[i].startsWith(prefix);
  }

  uses(word: string): number {
    const i = this.lowerBound(word);
    return this.words[i] === word ? this.counts[i] : 0;
  }
}

/**
 * Whether a query word can match a name word as typed: it is a vocabulary word, or, when it is the
 * query's last word (the one being typed), the start of one.
 */
export function knownWord(lexicon: Lexicon, word: string, last: boolean): boolean {
  return last ? lexicon.startsAWord(word) : lexicon.has(word);
}
