import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { geojson } from "flatgeobuf";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { type FgbFeature, writeFlatGeobuf } from "./fgb.ts";

/** A square region at (x, y), `d` degrees wide, with a few properties. */
function square(i: number, x: number, y: number, d: number): FgbFeature {
  const ring = [
    [x, y],
    [x + d, y],
    [x + d, y + d],
    [x, y + d],
    [x, y],
  ];
  return {
    bbox: [x, y, x + d, y + d],
    geometry: { type: "MultiPolygon", coordinates: [[ring]] },
    properties: { id: `r${i}`, name: `Region ${i}`, population_total: i % 7 === 0 ? null : i * 10, area_km2: d * 111 },
  };
}

const LAYER = {
  name: "test",
  title: "t",
  description: "d",
  metadata: "{}",
  columns: [
    { name: "id", type: "string" as const },
    { name: "name", type: "string" as const },
    { name: "population_total", type: "long" as const },
    { name: "area_km2", type: "double" as const },
  ],
};

async function readAll(bytes: Uint8Array, rect?: { minX: number; minY: number; maxX: number; maxY: number }) {
  const out: { id: string; properties: Record<string, unknown> }[] = [];
  for await (const f of geojson.deserialize(bytes, rect ? { rect } : undefined)) out.push({ id: String(f.properties?.id), properties: f.properties ?? {} });
  return out;
}

describe("FlatGeobuf files (the exports' .fgb)", () => {
  // flatgeobuf's index search logs every step with console.debug.
  beforeAll(() => void vi.spyOn(console, "debug").mockImplementation(() => undefined));
  // Deterministic pseudo-random squares over Indonesia's box: enough for three levels of the tree.
  let seed = 42;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const features = Array.from({ length: 1000 }, (_, i) => square(i, 95 + rand() * 45, -11 + rand() * 16, 0.05 + rand() * 0.5));
  const dir = mkdtempSync(join(tmpdir(), "fgb-"));
  const path = join(dir, "test.fgb");
  const written = writeFlatGeobuf(path, LAYER, features);
  const bytes = new Uint8Array(readFileSync(path));
  rmSync(dir, { recursive: true });

  it("hold every feature with its properties, and say their size and checksum", async () => {
    expect(written.records).toBe(1000);
    expect(written.size).toBe(bytes.length);
    const all = await readAll(bytes);
    expect(all).toHaveLength(1000);
    const r7 = all.find((f) => f.id === "r7");
    expect(r7?.properties).toMatchObject({ name: "Region 7", area_km2: features[7].properties.area_km2 });
    expect(r7?.properties.population_total ?? null).toBeNull();
    expect(Number(all.find((f) => f.id === "r8")?.properties.population_total)).toBe(80);
  });

  it("answer a bbox through the spatial index with exactly the features whose boxes intersect it", async () => {
    for (const rect of [
      { minX: 100, minY: -8, maxX: 104, maxY: -5 },
      { minX: 120, minY: 0, maxX: 120.5, maxY: 0.5 },
      { minX: 94, minY: -12, maxX: 142, maxY: 7 },
      { minX: 50, minY: 50, maxX: 51, maxY: 51 },
    ]) {
      const expected = features
        .filter((f) => f.bbox[0] <= rect.maxX && f.bbox[2] >= rect.minX && f.bbox[1] <= rect.maxY && f.bbox[3] >= rect.minY)
        .map((f) => f.properties.id)
        .sort();
      const got = (await readAll(bytes, rect)).map((f) => f.id).sort();
      expect(got, JSON.stringify(rect)).toEqual(expected);
    }
  });

  it("write one node for a handful of features (the tree's root alone)", async () => {
    const few = features.slice(0, 5);
    const d = mkdtempSync(join(tmpdir(), "fgb-"));
    writeFlatGeobuf(join(d, "few.fgb"), LAYER, few);
    const b = new Uint8Array(readFileSync(join(d, "few.fgb")));
    rmSync(d, { recursive: true });
    const rect = { minX: few[2].bbox[0], minY: few[2].bbox[1], maxX: few[2].bbox[2], maxY: few[2].bbox[3] };
    expect((await readAll(b, rect)).map((f) => f.id)).toContain("r2");
    expect(await readAll(b)).toHaveLength(5);
  });
});
