import { describe, expect, it } from "vitest";
import { CORRECTED_VARIANTS, decodeRow, keySql, NAME_READINGS, RANK, READING, readingId, type VariantSource, variantNumber } from "./protocol.ts";

describe("search protocol (src/wilayah/search/protocol.ts)", () => {
  const every: VariantSource[] = [
    { kind: "typed" },
    ...Array.from({ length: NAME_READINGS }, (_, index) => ({ kind: "reading" as const, index })),
    ...Array.from({ length: CORRECTED_VARIANTS }, (_, index) => ({ kind: "corrected" as const, index })),
  ];

  it("variants are numbered apart, the typed query first, and their reading ids read back", () => {
    expect(every.map(variantNumber)).toEqual(every.map((_, i) => i));
    for (const v of every) {
      const key = Number(keySql(v.kind === "corrected" ? RANK.FUZZY + RANK.PREFIX : RANK.PREFIX));
      expect(decodeRow(key, readingId(v, READING.LITERAL))).toEqual({ type: "prefix", fuzzy: v.kind === "corrected", variant: v, reading: "literal" });
      expect(decodeRow(key, readingId(v, { context: 2 })).reading).toEqual({ context: 2 });
    }
    expect(() => variantNumber({ kind: "reading", index: NAME_READINGS })).toThrow();
    expect(() => variantNumber({ kind: "corrected", index: -1 })).toThrow();
  });

  it("every reading id fits the bits packed beside the key (so min() keeps the typed query on ties)", () => {
    const ids = every.flatMap((v) => [readingId(v, READING.LITERAL), readingId(v, READING.POSTAL)]);
    expect(Math.max(...ids)).toBeLessThan(1024);
  });
});
