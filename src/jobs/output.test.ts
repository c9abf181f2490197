import { describe, expect, it } from "vitest";
import { encodeLinesPaced, SLICE_CHARS } from "./output";

const dec = new TextDecoder();
const joined = (slices: Uint8Array[]) => dec.decode(Buffer.concat(slices));

describe("jobs/output", () => {
  it("slices hold the same bytes as the lines joined, each line whole, UTF-8 included", async () => {
    const lines = Array.from({ length: 3_000 }, (_, i) => JSON.stringify({ row: i + 1, input: ["Jl. Ṣoekarno–Hatta №5, Kota Bandung 🏠"], answer: null }));
    const slices = await encodeLinesPaced(lines);
    expect(joined(slices)).toBe(`${lines.join("\n")}\n`);
    expect(slices.length).toBeGreaterThan(1);
    for (const s of slices) {
      expect(dec.decode(s).endsWith("\n")).toBe(true);
      expect(dec.decode(s).length).toBeLessThan(SLICE_CHARS + 200);
    }
  });

  it("a few short lines are one slice; no lines, none", async () => {
    expect(joined(await encodeLinesPaced(["a", "b"]))).toBe("a\nb\n");
    expect(await encodeLinesPaced([])).toEqual([]);
  });
});
