/** The boundary encoding, geometry helpers and the kelurahan boundary SQL (scripts/seed/boundaries.ts). */
import { describe, expect, it } from "vitest";
import { SEED_DIR } from "../../../scripts/lib";
import { kelurahanBoundarySql } from "../../../scripts/seed/boundaries";
import { parseBoundaries } from "../../../scripts/seed/boundary-sql";
import { decodeShape, encodeRings, gridCell, interiorPoint, parseDms, type Ring, ringsOf, shapeContains, toMultiPolygon } from "./geometry";

const r5 = (v: number) => Math.round(v * 1e5) / 1e5;
const square = (x: number, y: number, size: number, ccw = true): Ring => {
  const r: Ring = [
    [r5(x), r5(y)],
    [r5(x + size), r5(y)],
    [r5(x + size), r5(y + size)],
    [r5(x), r5(y + size)],
    [r5(x), r5(y)],
  ];
  return ccw ? r : r.reverse();
};

describe("boundary encoding", () => {
  it("round-trips rings losslessly at 5 decimals, keeping orientation", () => {
    const outer = square(106.8, -6.3, 0.2);
    const hole = square(106.85, -6.25, 0.05, false);
    const island = [
      [107.00001, -6.12345],
      [107.01, -6.12345],
      [107.00502, -6.11],
      [107.00001, -6.12345],
    ] as Ring;
    const rings = decodeShape(encodeRings([outer, hole, island]));
    expect(rings.map((r) => r.sign)).toEqual([1, -1, 1]);
    const geo = toMultiPolygon(rings);
    expect(geo).toHaveLength(2);
    expect(geo[0]).toEqual([outer, hole]);
    expect(geo[1]).toEqual([island]);
    expect(encodeRings([outer])).not.toMatch(/['\s]/);
  });

  it("tests points with holes (+1 exterior, -1 hole), and answers exactly one of two squares sharing an edge", () => {
    const rings = decodeShape(encodeRings([square(106.8, -6.3, 0.2), square(106.85, -6.25, 0.05, false)]));
    expect(shapeContains(rings, 106.81, -6.29)).toBe(true);
    expect(shapeContains(rings, 106.87, -6.23)).toBe(false); // in the hole
    expect(shapeContains(rings, 107.5, -6.29)).toBe(false);
    const left = decodeShape(encodeRings([square(106, -6, 0.1)]));
    const right = decodeShape(encodeRings([square(106.1, -6, 0.1)]));
    // Anywhere along the shared edge (its top end lies on the union's outer border, in neither).
    for (const lat of [-5.95, -5.99999, -6, -5.90001]) {
      expect(Number(shapeContains(left, 106.1, lat)) + Number(shapeContains(right, 106.1, lat)), String(lat)).toBe(1);
    }
  });

  it("simplify thins rings but keeps the largest exterior ring", () => {
    const wiggly: Ring = [];
    for (let i = 0; i <= 100; i++) wiggly.push([106 + i * 0.001, -6 + (i % 2) * 0.00001]);
    wiggly.push([106.1, -5.9], [106, -5.9], [106, -6]);
    const rings = decodeShape(encodeRings([wiggly, square(107, -6, 0.00002)]));
    const light = toMultiPolygon(rings, 0.001);
    expect(light).toHaveLength(1);
    expect(light[0][0].length).toBeLessThan(10);
  });

  it("grid cells count from Indonesia's south-west corner", () => {
    expect(gridCell(94, -12, 0.05)).toBe(0);
    expect(gridCell(94.06, -11.94, 0.05)).toBe(10_001);
  });
});

describe("a point of a region (interiorPoint)", () => {
  it("is the area centroid when that lies inside", () => {
    expect(interiorPoint(ringsOf([square(107, -7, 1)]))).toEqual({ lat: -6.5, lng: 107.5 });
  });

  it("lies inside a U-shaped region, whose centroid does not, and inside an island pair, not at sea between", () => {
    // a U: two legs and a bottom bar; the centroid falls in the gap between the legs
    const u: Ring = [
      [107, -7],
      [110, -7],
      [110, -4],
      [109, -4],
      [109, -6],
      [108, -6],
      [108, -4],
      [107, -4],
      [107, -7],
    ];
    const rings = ringsOf([u]);
    const p = interiorPoint(rings)!;
    expect(shapeContains(rings, p.lng, p.lat)).toBe(true);
    const islands = ringsOf([square(100, 0, 1), square(104, 0, 1)]);
    const q = interiorPoint(islands)!;
    expect(shapeContains(islands, q.lng, q.lat)).toBe(true);
    // a hole in the middle: not in the hole
    const holed = ringsOf([square(100, 0, 3), square(101, 1, 1, false)]);
    const h = interiorPoint(holed)!;
    expect(shapeContains(holed, h.lng, h.lat)).toBe(true);
  });
});

describe("degrees, minutes, seconds", () => {
  it("converts the source's island coordinates, south and west negative", () => {
    expect(parseDms(`03°19'03.44" N 097°07'41.73" E`)).toEqual({ lat: 3.317622, lng: 97.128258 });
    expect(parseDms(`02°15'11.99" S 106°00'23.00" E`)).toEqual({ lat: -2.253331, lng: 106.006389 });
    expect(parseDms(`00°00'00.00" N 010°30'00" W`)).toEqual({ lat: 0, lng: -10.5 });
  });

  it("refuses anything else", () => {
    for (const bad of ["", "3.31 97.12", `03°19'03.44" X 097°07'41.73" E`, `03°61'03.44" N 097°07'41.73" E`, `03°19'63" N 097°07'41.73" E`])
      expect(parseDms(bad), bad).toBeNull();
  });
});

describe("kelurahan boundary SQL (built at load time)", () => {
  it("covers the 83,402 villages of the source, every statement under D1's 100 KB, marker last", () => {
    const sql = kelurahanBoundarySql(SEED_DIR);
    const lines = sql.split("\n").filter(Boolean);
    expect(Math.max(...lines.map((l) => Buffer.byteLength(l)))).toBeLessThan(100_000);
    expect(lines.at(-1)).toMatch(/^INSERT OR REPLACE INTO dataset .*'boundaries-kelurahan'/);
    const bbox = lines.filter((l) => l.startsWith("INSERT INTO wilayah_bbox")).join("");
    expect(bbox.match(/\('\d{2}\.\d{2}\.\d{2}\.\d{4}',4,/g)).toHaveLength(83_402);
  }, 60_000);

  it("parses the CSV strictly", () => {
    expect(() => parseBoundaries("id,shape\n")).toThrow(/line 1/);
    expect(() => parseBoundaries('code,polygon\n32,"[[1,2]"\n')).toThrow(/line 2/);
    expect(parseBoundaries('code,polygon\n32,"[[[106,-6],[106.1,-6],[106,-5.9],[106,-6]]]"\n')[0].id).toBe("32");
  });
});
