import { describe, expect, it } from "vitest";
import { rupiahInWords, terbilang } from "./terbilang";

describe("lib/terbilang", () => {
  it.each([
    [0, "nol"],
    [1, "satu"],
    [10, "sepuluh"],
    [11, "sebelas"],
    [12, "dua belas"],
    [19, "sembilan belas"],
    [20, "dua puluh"],
    [21, "dua puluh satu"],
    [100, "seratus"],
    [110, "seratus sepuluh"],
    [111, "seratus sebelas"],
    [999, "sembilan ratus sembilan puluh sembilan"],
    [1_000, "seribu"],
    [1_100, "seribu seratus"],
    [2_000, "dua ribu"],
    [11_000, "sebelas ribu"],
    [100_000, "seratus ribu"],
    [150_000, "seratus lima puluh ribu"],
    [199_000, "seratus sembilan puluh sembilan ribu"],
    [1_000_000, "satu juta"],
    [2_019_500, "dua juta sembilan belas ribu lima ratus"],
    [5_000_000, "lima juta"],
    [1_000_001_000, "satu miliar seribu"],
    [3_000_000_000_000, "tiga triliun"],
  ])("%i: %s", (n, words) => {
    expect(terbilang(n)).toBe(words);
  });

  it("a kwitansi's sum: capitalised, in rupiah", () => {
    expect(rupiahInWords(20_000)).toBe("Dua puluh ribu rupiah");
    expect(rupiahInWords(799_000)).toBe("Tujuh ratus sembilan puluh sembilan ribu rupiah");
  });

  it("refuses what is not a whole number it can say", () => {
    for (const n of [-1, 1.5, Number.NaN, 1e15]) expect(() => terbilang(n)).toThrow(RangeError);
  });
});
