import { describe, expect, it } from "vitest";
import { editDistance, isSlip, maxEdits, nearContextName } from "./edits";

describe("edit distance", () => {
  it("Damerau-Levenshtein: a transposition is one edit", () => {
    expect(editDistance("bandung", "bandnug")).toBe(1);
    expect(editDistance("bandung", "bandng")).toBe(1);
    expect(editDistance("bandung", "bandunng")).toBe(1);
    expect(editDistance("bandung", "bamdung")).toBe(1);
    expect(editDistance("yogyakarta", "yogyakrata")).toBe(1);
    expect(editDistance("yogyakarta", "yogykarat")).toBe(2);
    expect(editDistance("abc", "abc")).toBe(0);
    expect([3, 4, 7, 8, 12].map(maxEdits)).toEqual([0, 1, 1, 2, 2]);
  });

  it("a slip: a letter missed or two neighbours swapped, never a letter changed or added", () => {
    expect(isSlip("wengi", "wenigi")).toBe(true); // an i missed
    expect(isSlip("alangka", "balangka")).toBe(true); // the first letter missed
    expect(isSlip("salak", "salaka")).toBe(true); // the last
    expect(isSlip("kalimutki", "kalimukti")).toBe(true); // kt swapped
    expect(isSlip("wengi", "wangi")).toBe(false); // a letter changed
    expect(isSlip("wenigi", "wengi")).toBe(false); // a letter added
    expect(isSlip("bandung", "bandung")).toBe(false);
    expect(isSlip("abcd", "badc")).toBe(false); // two swaps
  });

  it("a name near one written with its context: one edit per eight letters, at least one", () => {
    expect(nearContextName("sinembah tnjng muda hulu", ["Sinembah Tanjung Muda Hulu"])).toEqual({ name: "sinembah tanjung muda hulu", d: 2 });
    expect(nearContextName("kujang", ["Kunjang", "Kujangsari"])).toEqual({ name: "kunjang", d: 1 });
    expect(nearContextName("abc", ["Xyz"])).toBeNull();
  });
});
