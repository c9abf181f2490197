import { describe, expect, it } from "vitest";
import { editDistance } from "../../src/wilayah/search-plan.ts";
import { parseVocabulary, TYPO_CANDIDATES, Vocabulary, vocabulary } from "../../src/wilayah/vocabulary.ts";

describe("typo vocabulary (src/wilayah/vocabulary.ts)", () => {
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
    for (const [typed, meant] of [["cirebn", "cirebon"], ["yogyakrata", "yogyakarta"], ["bandng", "bandung"], ["jakrta", "jakarta"]]) {
      const found = v.similarWords(typed, typed.length >= 8 ? 2 : 1);
      expect(found.length).toBeLessThanOrEqual(TYPO_CANDIDATES);
      expect(found.map((x) => x.w), typed).toContain(meant);
      expect(editDistance(typed, meant)).toBe(1);
    }
  });
});
