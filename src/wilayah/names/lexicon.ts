/**
 * What name reading needs to know of the search vocabulary (every word of every indexed spelling,
 * seed/vocabulary.json): whether a word is one, whether a prefix starts one, and how many regions use
 * a word. The Worker's typo vocabulary (src/wilayah/vocabulary.ts, class Vocabulary) already holds
 * the sorted words and their counts; it satisfies this with two more binary searches (`has`, `uses`).
 * WordList is the same over a plain sorted array, for scripts and tests.
 */
export interface Lexicon {
  /** `word` is a word of some indexed spelling. */
  has(word: string): boolean;
  /** Some word starts with `prefix` (itself included). */
  startsAWord(prefix: string): boolean;
  /** How many regions use `word` (0 when it is none). */
  uses(word: string): number;
}

export class WordList implements Lexicon {
  private readonly words: string[];
  private readonly counts: number[];

  /** Rows `{w, n}` in any order (sorted here by code unit, as the vocabulary is). */
  constructor(rows: { w: string; n: number }[]) {
    // seed/vocabulary.json is written sorted: checking costs less than sorting again.
    const sorted = rows.every((r, i) => i === 0 || rows[i - 1].w < r.w) ? rows : [...rows].sort((a, b) => (a.w < b.w ? -1 : a.w > b.w ? 1 : 0));
    this.words = sorted.map((r) => r.w);
    this.counts = sorted.map((r) => r.n);
  }

  /** The `word<TAB>count` lines of seed/vocabulary.json's `text`. */
  static fromText(text: string): WordList {
    return new WordList(
      text.split("\n").map((line) => {
        const tab = line.indexOf("\t");
        return { w: line.slice(0, tab), n: Number(line.slice(tab + 1)) };
      }),
    );
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
 * A word as the query's reader must treat it: `whole` when it is a vocabulary word; when it is the
 * query's last word (the one being typed) a word it starts is enough.
 */
export function knownWord(lexicon: Lexicon, word: string, last: boolean): boolean {
  return last ? lexicon.startsAWord(word) : lexicon.has(word);
}
