import { describe, expect, it } from "vitest";
import { knownWord, parseVocabulary, WordList } from "./lexicon.ts";

describe("WordList (src/wilayah/names/lexicon.ts)", () => {
  const list = new WordList(parseVocabulary(["bandung\t109", "bantul\t4", "bukittinggi\t2", "ba\t1"].join("\n")));

  it("knows words, prefixes and uses", () => {
    expect(list.has("bandung")).toBe(true);
    expect(list.has("band")).toBe(false);
    expect(list.startsAWord("band")).toBe(true);
    expect(list.startsAWord("bandx")).toBe(false);
    expect(list.uses("bandung")).toBe(109);
    expect(list.uses("zzz")).toBe(0);
  });

  it("a last word may be the start of a word; any other must be one", () => {
    expect(knownWord(list, "bukit", true)).toBe(true);
    expect(knownWord(list, "bukit", false)).toBe(false);
  });
});
