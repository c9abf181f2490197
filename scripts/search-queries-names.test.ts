import { describe, expect, it } from "vitest";
import { builtSeed } from "../test/node/built-seed.ts";
import { buildNameGroups, NAME_GROUPS } from "./search-queries-names.ts";

describe("name-reading groups of the quality set (scripts/search-queries-names.ts)", () => {
  it("are drawn deterministically from the seed, each query with an active region to find", async () => {
    const seed = await builtSeed();
    const { rows } = seed;
    const a = buildNameGroups(seed);
    const b = buildNameGroups(seed);
    expect(b).toEqual(a);
    const sizes = Object.fromEntries(NAME_GROUPS.map((g) => [g, a.filter((q) => q.group === g).length]));
    console.log("name groups", sizes);
    for (const g of NAME_GROUPS) expect(sizes[g], g).toBeGreaterThan(10);
    const active = new Set(rows.filter((r) => r.isActive === 1).map((r) => r.id));
    for (const q of a) expect(active.has(q.expected), q.q).toBe(true);
    expect(new Set(a.map((q) => q.q)).size).toBe(a.length);
    const find = (q: string) => a.find((x) => x.q === q)?.expected;
    expect(find("pematang siantar")).toBe("12.72");
    expect(find("bukit tinggi")).toBe("13.75");
    expect(find("sby")).toBe("35.78");
    expect(find("buitenzorg")).toBe("32.71");
  }, 300_000); // the whole seed build when no other suite has kept it (test/node/built-seed.ts): about 30 s alone, minutes on a loaded machine
});
