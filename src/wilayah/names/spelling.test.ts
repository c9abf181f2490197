import { describe, expect, it } from "vitest";
import { WordList } from "./lexicon.ts";
import { modernSpellings, oldSpellingOf, SPELLING_CANDIDATES } from "./spelling.ts";
import { shippedLexicon } from "./testing.ts";

describe("old spellings (src/wilayah/names/spelling.ts)", () => {
  it("reads Van Ophuijsen and Soewandi spellings in EYD, against the shipped vocabulary", () => {
    for (const [old, modern] of [
      ["soerabaja", "surabaya"],
      ["tjirebon", "cirebon"],
      ["bandoeng", "bandung"],
      ["djakarta", "jakarta"],
      ["bandjar", "banjar"],
      ["tjilatjap", "cilacap"],
      ["banjoewangi", "banyuwangi"], // nj -> ny is j -> y after n
      ["soerakarta", "surakarta"],
      ["koepang", "kupang"],
      ["atjeh", "aceh"],
    ]) {
      expect(modernSpellings(old, shippedLexicon), old).toContain(modern);
    }
  });

  it("offers only vocabulary words (ambiguous j and ch included), at most SPELLING_CANDIDATES", () => {
    const lex = new WordList([
      { w: "jaya", n: 10 },
      { w: "yaya", n: 1 },
      { w: "khusus", n: 1 },
      { w: "kuta", n: 3 },
    ]);
    expect(modernSpellings("djaja", lex)).toEqual(["jaya"]); // dj -> j, then j -> y; `jaja` is no word
    expect(modernSpellings("chusus", lex)).toEqual(["khusus"]);
    expect(modernSpellings("koeta", lex)).toEqual(["kuta"]);
    expect(modernSpellings("bandung", lex)).toEqual([]); // no old group
    expect(modernSpellings("zoejoe", lex)).toEqual([]); // no candidate is a word
    expect(modernSpellings("soerabaja", shippedLexicon).length).toBeLessThanOrEqual(SPELLING_CANDIDATES);
  });

  it("the word being typed may become the start of a word", () => {
    const lex = new WordList([{ w: "surabaya", n: 10 }]);
    expect(modernSpellings("soerab", lex)).toEqual([]);
    expect(modernSpellings("soerab", lex, { last: true })).toEqual(["surab"]);
  });

  it("many old groups: all rewritten, never 2^n candidates", () => {
    const word = "djoedjoedjoedjoe"; // 8 groups
    const lex = new WordList([{ w: "jujujuju", n: 1 }]);
    expect(modernSpellings(word, lex)).toEqual(["jujujuju"]);
  });

  it("oldSpellingOf is read back by modernSpellings", () => {
    expect(oldSpellingOf("surabaya")).toBe("soerabaja");
    expect(oldSpellingOf("cirebon")).toBe("tjirebon");
    expect(oldSpellingOf("banyuwangi")).toBe("banjoewangi");
    expect(oldSpellingOf("khusus")).toBe("choesoes");
    for (const w of ["surabaya", "cirebon", "banyuwangi", "yogyakarta", "majalengka", "pancaukan", "kepulauan"]) {
      expect(modernSpellings(oldSpellingOf(w), shippedLexicon), w).toContain(w);
    }
  });
});
