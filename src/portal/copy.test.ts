import { describe, expect, it } from "vitest";
import { copyAreas } from "./i18n";

describe("the portal's copy", () => {
  it("no key is in two page areas (a second one would silently replace the first)", () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [area, copy] of Object.entries(copyAreas)) {
      for (const key of Object.keys(copy.en)) {
        if (seen.has(key)) twice.push(`${key}: ${seen.get(key)} and ${area}`);
        seen.set(key, area);
      }
    }
    expect(twice).toEqual([]);
    expect(seen.size).toBeGreaterThan(400);
  });

  it("each area has every key in both languages, and no other", () => {
    for (const copy of Object.values(copyAreas)) expect(Object.keys(copy.id).sort()).toEqual(Object.keys(copy.en).sort());
  });
});
