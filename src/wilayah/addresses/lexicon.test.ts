import { describe, expect, it } from "vitest";
import { isHouseNumber, isPostal, regionCode, tokenize } from "./lexicon.ts";

describe("address lexicon (src/wilayah/addresses/lexicon.ts)", () => {
  it("tokenises: words folded, labels glued to numbers split, separators and joining punctuation marked", () => {
    const toks = tokenize("RT003RW002, Kel/Desa: Sei. Pudak #7");
    expect(toks.map((t) => [t.raw, t.w, t.sep, t.punct])).toEqual([
      ["RT", "rt", false, false],
      ["003", "003", false, false],
      ["RW", "rw", false, false],
      ["002", "002", false, false],
      [",", "", true, false],
      ["Kel", "kel", false, false],
      ["/", "/", false, true],
      ["Desa", "desa", false, false],
      [":", ":", false, true],
      ["Sei.", "sei", false, false],
      ["Pudak", "pudak", false, false],
      ["#", "#", false, true],
      ["7", "7", false, false],
    ]);
    expect(toks[9]).toMatchObject({ start: 22, end: 26 });
    expect(tokenize("Km 5,5 Meñteng").map((t) => t.w)).toEqual(["km", "5,5", "menteng"]);
  });

  it("tells codes, postal codes and house numbers from other numbers", () => {
    expect(regionCode("3273011001")).toBe("32.73.01.1001");
    expect(regionCode("32.73")).toBe("32.73");
    expect(regionCode("3273010001")).toBe(null); // BPS's village code
    expect(isPostal(tokenize("40111")[0])).toBe(true);
    expect(isPostal(tokenize("04011")[0])).toBe(false);
    expect(["12A", "A5", "12-14", "Jl"].map((w) => isHouseNumber(tokenize(w)[0]))).toEqual([true, true, true, false]);
  });
});
