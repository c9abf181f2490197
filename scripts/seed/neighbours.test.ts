/**
 * Neighbours: the pieces of scripts/seed/neighbours.ts on their own (the streaming reader against
 * JSON.parse, the capsule measure, the SQL and file forms). The computation's promises (symmetry
 * at every level, Java, Kota Bandung, DKI, straits that stay open, a sample re-measured on the raw
 * rings) are checked on the loaded data in test/node/space-quality.test.ts; scripts/seed/build.test.ts
 * checks that the committed seed is what the computation produces.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SEED_DIR } from "../lib.ts";
import { MIN_SHARED_M, neighbourSql } from "./borders.ts";
import { readBoundaries } from "./boundary-sql.ts";
import { readLevelShapes } from "./neighbours.ts";
import { capsuleInterval } from "./shared-borders.ts";
import { kelurahanNeighboursFile, neighboursCsv, readKelurahanNeighbours } from "./space-sql.ts";

const writeTemp = (content: Buffer) => {
  const file = join(mkdtempSync(join(tmpdir(), "neighbours-")), "n.csv.gz");
  writeFileSync(file, content);
  return file;
};

describe("neighbours", () => {
  it("reads the boundary files point for point as JSON.parse does (kabupaten file)", async () => {
    const shapes = await readLevelShapes(SEED_DIR, "kabupaten");
    const json = readBoundaries(SEED_DIR, "kabupaten");
    expect(shapes.ids).toEqual(json.map((b) => b.id));
    const mismatches: string[] = [];
    json.forEach((b, g) => {
      const rings = b.rings;
      if (shapes.ringStart[g + 1] - shapes.ringStart[g] !== rings.length) mismatches.push(`${b.id}: ring count`);
      rings.forEach((ring, k) => {
        const r = shapes.ringStart[g] + k;
        const p0 = shapes.pointStart[r];
        if (shapes.pointStart[r + 1] - p0 !== ring.length) mismatches.push(`${b.id} ring ${k}: point count`);
        ring.forEach(([lng, lat], i) => {
          if (shapes.xs[p0 + i] !== Math.round(lng * 1e5) || shapes.ys[p0 + i] !== Math.round(lat * 1e5)) mismatches.push(`${b.id} ring ${k} point ${i}`);
        });
      });
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
  });

  it("measures the part of a segment within a distance of another segment (capsule)", () => {
    const out = new Float64Array(2);
    expect(capsuleInterval(10, 0, 0, 5, 10, 5, 2.5, out)).toBe(false); // parallel, 5 apart
    expect(capsuleInterval(10, 0, 2, 1, 6, 1, 2, out)).toBe(true); // parallel, 1 apart, over x 2..6, reach 2
    expect(out[0]).toBeCloseTo(0.2 - Math.sqrt(3) / 10, 9);
    expect(out[1]).toBeCloseTo(0.6 + Math.sqrt(3) / 10, 9);
    expect(capsuleInterval(10, 0, 5, -3, 5, 3, 1, out)).toBe(true); // crossing at x = 5
    expect([out[0], out[1]]).toEqual([0.4, 0.6]);
  });

  it("writes INSERT statements under 60 KB each (the committed village borders)", () => {
    const rows = readKelurahanNeighbours(kelurahanNeighboursFile(SEED_DIR));
    const sql = neighbourSql("kelurahan", rows);
    const statements = sql.split("\n").filter(Boolean);
    expect(statements[0]).toBe("DELETE FROM wilayah_neighbor WHERE level = 4;");
    for (const s of statements) expect(s.length).toBeLessThan(60_000);
    expect(statements.filter((s) => s.startsWith("INSERT")).reduce((n, s) => n + s.split("),(").length, 0)).toBe(rows.length);
  });

  it("seed/neighbours-kelurahan.csv.gz holds one line per border and reads back as both directions", () => {
    const rows = readKelurahanNeighbours(kelurahanNeighboursFile(SEED_DIR));
    const again = readKelurahanNeighbours(writeTemp(neighboursCsv(rows)));
    expect(again).toEqual(rows);
    expect(rows.length % 2).toBe(0);
    expect(rows.every((r) => r.level === 4 && r.sharedBorderKm * 1000 >= MIN_SHARED_M - 5)).toBe(true);
  });
});
