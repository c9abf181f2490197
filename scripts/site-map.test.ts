import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { buildMap, MAP_FILE } from "./site-map.ts";

it("the committed map of the landing page is the generator's output (npm run site:map), 38 provinces, small", async () => {
  const built = await buildMap();
  expect(readFileSync(MAP_FILE, "utf8")).toBe(built);
  const map = JSON.parse(built) as { provinces: { id: string; d: string }[] };
  expect(map.provinces.length).toBe(38);
  expect(built.length).toBeLessThan(60_000);
});
