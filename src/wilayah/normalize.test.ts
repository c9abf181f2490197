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

  it("answers plain ASCII by its short path exactly as the full normalisation does", () => {
    const full = (input: string) =>
      input
        .normalize("NFKD")
        .replace(/\p{M}+/gu, "")
        .replace(/[\u2018\u2019\u02BC\u0060]/g, "'")
        .toLowerCase()
        .replace(/\s+/g, " ")
        .replace(/\p{Cc}/gu, "")
        .trim();
    // Every ASCII character, white space and DEL included, in seeded random strings, and names as written.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const samples = ["Kota `Bandung`\t\n  Jawa BARAT ", "Jl. A. Yani No.1\r\nKec. X", "\u007f a \u0000 b", "Sélatan", ""];
    for (let i = 0; i < 2_000; i++) samples.push(String.fromCharCode(...Array.from({ length: next() % 24 }, () => next() % 128)));
    for (const s of samples) expect(normalizeSearchText(s), JSON.stringify(s)).toBe(full(s));
  });
});
