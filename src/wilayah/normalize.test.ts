import { describe, expect, it } from "vitest";
import { normalizeSearchText, TERM_SEPARATOR } from "./normalize";

describe("wilayah/normalize", () => {
  it("folds case, accents, typographic apostrophes and white space", () => {
    expect(normalizeSearchText("  Bandung   WETAN ")).toBe("bandung wetan");
    expect(normalizeSearchText("Sélatan")).toBe("selatan");
    expect(normalizeSearchText("Ma\u2019rang")).toBe("ma'rang");
  });

  it("keeps operators literally and drops control characters (the term separator can never be queried)", () => {
    expect(normalizeSearchText('a%b_c*"d"')).toBe('a%b_c*"d"');
    expect(normalizeSearchText(`x${TERM_SEPARATOR}y\u0000`)).toBe("xy");
  });
});
