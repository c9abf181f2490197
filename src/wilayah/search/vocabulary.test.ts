import { describe, expect, it } from "vitest";
import seedVocabulary from "../../../seed/vocabulary.json";
import { editDistance } from "../edits.ts";
import { parseVocabulary } from "../names/lexicon.ts";
import { minSharedTrigrams, wordTrigrams } from "./plan.ts";
import { TYPO_CANDIDATES, Vocabulary, vocabulary } from "./vocabulary.ts";

describe("typo vocabulary (src/wilayah/search/vocabulary.ts)", () => {
  const small = new Vocabulary(parseVocabulary(["bandung\t109", "bantul\t4", "banding\t2", "bandungan\t3", "ba\t1", "cirebon\t9"].join("\n")));

  it("a word that starts some vocabulary word is no typo", () => {
    expect(small.startsAWord("band")).toBe(true);
    expect(small.startsAWord("bandung")).toBe(true);
    expect(small.startsAWord("bandng")).toBe(false);
    expect(small.startsAWord("zzz")).toBe(false);
  });

  it("candidates: similar length, enough shared trigrams, most shared first, then alphabetical", () => {
    const c = small.similarWords("bandng", 1);
    expect(c.map((x) => x.w)).toEqual(["banding", "bandung"]);
    expect(c[1]).toEqual({ w: "bandung", n: 109 });
    // Length 9 is beyond one edit of 6 letters; cirebon shares too few trigrams.
    expect(small.similarWords("bandng", 1).some((x) => x.w === "bandungan" || x.w === "cirebon")).toBe(false);
  });

  it("the shipped vocabulary (seed/vocabulary.json) finds the one-edit spellings of real names", () => {
    const v = vocabulary();
    expect(v.size).toBeGreaterThan(40_000);
    for (const [typed, meant] of [
      ["cirebn", "cirebon"],
      ["yogyakrata", "yogyakarta"],
      ["bandng", "bandung"],
      ["jakrta", "jakarta"],
    ]) {
      const found = v.similarWords(typed, typed.length >= 8 ? 2 : 1);
      expect(found.length).toBeLessThanOrEqual(TYPO_CANDIDATES);
      expect(
        found.map((x) => x.w),
        typed,
      ).toContain(meant);
      expect(editDistance(typed, meant)).toBe(1);
    }
  });

  it("the index answers as a scan of every word would (same words, same order)", () => {
    const v = vocabulary();
    const all = parseVocabulary(seedVocabulary.text);
    const scan = (word: string, edits: number) => {
      const mine = new Set(wordTrigrams(word));
      return all
        .filter((r) => r.w.length >= 3 && Math.abs(r.w.length - word.length) <= edits)
        .map((r) => ({ ...r, shared: wordTrigrams(r.w).filter((g) => mine.has(g)).length }))
        .filter((r) => r.shared >= minSharedTrigrams(word))
        .sort((a, b) => b.shared - a.shared || (a.w < b.w ? -1 : 1))
        .slice(0, TYPO_CANDIDATES)
        .map(({ w, n }) => ({ w, n }));
    };
    // Real words with one edit each (deletion, substitution, insertion, transposition), short and long.
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const words = all.filter((r) => r.w.length >= 4 && /^[a-z]+$/.test(r.w));
    for (let i = 0; i < 24; i++) {
      const w = words[rand(words.length)].w;
      const at = rand(w.length - 1);
      const typed = [
        w.slice(0, at) + w.slice(at + 1),
        `${w.slice(0, at)}x${w.slice(at + 1)}`,
        `${w.slice(0, at)}e${w.slice(at)}`,
        w.slice(0, at) + w[at + 1] + w[at] + w.slice(at + 2),
      ][i % 4];
      const edits = typed.length >= 8 ? 2 : 1;
      expect(v.similarWords(typed, edits), typed).toEqual(scan(typed, edits));
    }
  });
});
