/**
 * The word vocabulary of the search index (every distinct word of every spelling, with the number
 * of regions using it), held in the isolate for typo handling and as the lexicon of name readings
 * (src/wilayah/names: a WordList, which it extends). It ships with the Worker as
 * seed/vocabulary.json, written by the seed build from the same rows as seed/wilayah.sql (so the
 * data and its vocabulary change together, with a deploy); it is parsed on the first search (every
 * query is read against it), and the padded-trigram index over it is built on the first possible typo.
 *
 * Why not in SQL (as it was, over a `wilayah_vocab_grams` table, dropped by migration 0010): the
 * candidate query walked thousands of index rows per word and needed a round trip of its own before
 * the corrected search. Here a typo costs a few thousand array reads in the isolate and the search
 * stays one statement. The answers are the same: same gate (a word that starts some vocabulary word
 * is no typo), same candidates (similar length, at least minSharedTrigrams shared, most shared
 * first, then alphabetical, at most TYPO_CANDIDATES per word).
 */
import seedVocabulary from "../../../seed/vocabulary.json";
import { parseVocabulary, type WordCount, WordList } from "../names/lexicon";
import { minSharedTrigrams } from "./plan";

/** At most this many candidates per word, those sharing the most trigrams (then alphabetical). */
export const TYPO_CANDIDATES = 300;

let shipped: Vocabulary | undefined;

/** The vocabulary shipped with the Worker, parsed once per isolate. */
export function vocabulary(): Vocabulary {
  shipped ??= new Vocabulary(parseVocabulary(seedVocabulary.text));
  return shipped;
}

/**
 * Trigrams as numbers: the pad `#` is 0, a-z 1-26, 0-9 27-36 (the only characters of name words,
 * which are cut at every other ASCII character); anything else would share 37, which can only add
 * candidates that the exact distance then drops.
 */
const K = 38;
function symbol(c: number): number {
  if (c >= 97 && c <= 122) return c - 96;
  if (c >= 48 && c <= 57) return c - 21;
  return 37;
}

/** The distinct padded trigrams of a word (`##w##`) as numbers, in order. */
function trigramCodes(w: string, out: number[]): number[] {
  out.length = 0;
  const s = [0, 0];
  for (let i = 0; i < w.length; i++) s.push(symbol(w.charCodeAt(i)));
  s.push(0, 0);
  for (let i = 0; i + 3 <= s.length; i++) {
    const g = (s[i] * K + s[i + 1]) * K + s[i + 2];
    if (!out.includes(g)) out.push(g);
  }
  return out;
}

/**
 * Trigram code g -> postings[start[g] .. start[g + 1]): the ids of the words holding it, shortest
 * words first (then by id), with each word's length beside it in postingLengths, so a lookup reads
 * only the words of a length within reach. `shared`: a shared-trigram counter per word id, all zero
 * between calls.
 */
type TrigramIndex = { start: Int32Array; postings: Int32Array; postingLengths: Uint8Array; shared: Uint8Array };

export class Vocabulary extends WordList {
  /** The trigram index, built on the first possible typo (see TrigramIndex). */
  private index?: TrigramIndex;

  /**
   * Words of length within `edits` of `word` sharing at least minSharedTrigrams(word) of its padded
   * trigrams, most shared first (then alphabetical), at most TYPO_CANDIDATES, with how many regions
   * use each.
   */
  similarWords(word: string, edits: number): WordCount[] {
    this.index ??= this.buildIndex();
    const { start, postings, postingLengths: lengths, shared } = this.index;
    const min = word.length - edits;
    const max = word.length + edits;
    const touched: number[] = [];
    for (const g of trigramCodes(word, [])) {
      // The first posting of a word at least `min` long, then on while the words are short enough.
      let lo = start[g];
      let hi = start[g + 1];
      const end = hi;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (lengths[mid] < min) lo = mid + 1;
        else hi = mid;
      }
      for (let i = lo; i < end && lengths[i] <= max; i++) {
        const id = postings[i];
        if (shared[id]++ === 0) touched.push(id);
      }
    }
    const need = minSharedTrigrams(word);
    const found = touched.filter((id) => shared[id] >= need).sort((a, b) => shared[b] - shared[a] || a - b); // ids follow the words' order
    const out = found.slice(0, TYPO_CANDIDATES).map((id) => ({ w: this.words[id], n: this.counts[id] }));
    for (const id of touched) shared[id] = 0;
    return out;
  }

  /** The padded-trigram index over words of 3+ characters (shorter ones are never candidates). */
  private buildIndex(): TrigramIndex {
    // Ids by length, then id: filling the postings in this order sorts each list so.
    const byLength = Array.from(this.words.keys()).sort((a, b) => this.words[a].length - this.words[b].length || a - b);
    const sizes = new Int32Array(K * K * K);
    const perWord: number[] = []; // trigram codes, word after word (in byLength order)
    const wordEnd = new Int32Array(byLength.length);
    const buf: number[] = [];
    byLength.forEach((id, k) => {
      const w = this.words[id];
      if (w.length >= 3) {
        for (const g of trigramCodes(w, buf)) {
          sizes[g]++;
          perWord.push(g);
        }
      }
      wordEnd[k] = perWord.length;
    });
    const start = new Int32Array(sizes.length + 1);
    for (let g = 0; g < sizes.length; g++) start[g + 1] = start[g] + sizes[g];
    const fill = start.slice(0, sizes.length);
    const postings = new Int32Array(perWord.length);
    const postingLengths = new Uint8Array(perWord.length);
    let p = 0;
    byLength.forEach((id, k) => {
      const len = Math.min(255, this.words[id].length);
      for (; p < wordEnd[k]; p++) {
        const at = fill[perWord[p]]++;
        postings[at] = id;
        postingLengths[at] = len;
      }
    });
    return { start, postings, postingLengths, shared: new Uint8Array(this.words.length) };
  }
}
