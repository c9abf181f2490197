import { describe, expect, it } from "vitest";
import { WordList } from "./lexicon.ts";
import { joinWords, splitWord } from "./spacing.ts";
import { shippedLexicon } from "./testing.ts";

describe("compound spacing (src/wilayah/names/spacing.ts)", () => {
  it("splits a word into two vocabulary words (`padangpanjang`), joins two (`bukit tinggi`)", () => {
    expect(splitWord("padangpanjang", shippedLexicon)[0]).toEqual(["padang", "panjang"]);
    expect(splitWord("pematangsiantar", shippedLexicon)[0]).toEqual(["pematang", "siantar"]);
    expect(joinWords("bukit", "tinggi", shippedLexicon)).toBe("bukittinggi");
    expect(joinWords("pematang", "siantar", shippedLexicon)).toBe("pematangsiantar");
    expect(joinWords("jakarta", "selatan", shippedLexicon)).toBeNull();
  });

  it("prefers whole words, then the most used parts; at most two splits; parts of 3+ letters used by 3+ regions", () => {
    const lex = new WordList([
      { w: "sukamaju", n: 1 },
      { w: "suka", n: 300 },
      { w: "maju", n: 200 },
      { w: "sukam", n: 3 },
      { w: "aju", n: 4 },
      { w: "su", n: 5 },
      { w: "kamaju", n: 5 },
      { w: "sukama", n: 2 }, // used by too few regions to split on
    ]);
    expect(splitWord("sukamaju", lex)).toEqual([
      ["suka", "maju"],
      ["sukam", "aju"],
    ]);
    expect(splitWord("sukamaju", lex, { max: 1 })).toEqual([["suka", "maju"]]);
  });

  it("the word being typed: the second part may start a word", () => {
    expect(splitWord("padangpanj", shippedLexicon)).toEqual([]);
    expect(splitWord("padangpanj", shippedLexicon, { last: true })[0]).toEqual(["padang", "panj"]);
    expect(splitWord("padangpan", shippedLexicon, { last: true })).toEqual([]); // a 3-letter start is too little
    expect(joinWords("bukit", "ting", shippedLexicon, { last: true })).toBe("bukitting");
    expect(joinWords("bukit", "t", shippedLexicon, { last: true })).toBeNull();
  });

  it("letters only", () => {
    expect(splitWord("padang-panjang", shippedLexicon)).toEqual([]);
    expect(joinWords("50", "kota", shippedLexicon)).toBeNull();
  });
});
