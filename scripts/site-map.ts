/**
 * The landing page's map of Indonesia: the 38 province boundaries, simplified (Douglas-Peucker,
 * 0.04 degrees) and projected to SVG coordinates (equirectangular over Indonesia's box, 10 units a
 * degree), islands under 0.02 square degrees left out. Written to src/site/map.json, which the Worker
 * bundles; a test checks the committed file is this script's output.
 *
 *   npm run site:map
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as current from "idn-area-data";
import { decodeShape, encodeRings, toMultiPolygon } from "../src/wilayah/geo/geometry.ts";
import { isMain, root, SEED_DIR } from "./lib.ts";
import { readBoundaries } from "./seed/boundary-sql.ts";

/** Indonesia's box (the seed's bounds) and the SVG scale: units per degree. */
export const MAP_BOX = { west: 94.5, east: 141.5, south: -11.5, north: 6.5, scale: 10 };
const SIMPLIFY_DEGREES = 0.04;
const MIN_RING_AREA = 0.02; // square degrees

const project = (lng: number, lat: number) => [(lng - MAP_BOX.west) * MAP_BOX.scale, (MAP_BOX.north - lat) * MAP_BOX.scale];

/** Shoelace area of a ring, square degrees. */
function area(ring: number[][]): number {
  let a = 0;
  for (let i = 0; i + 1 < ring.length; i++) a += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return Math.abs(a) / 2;
}

export async function buildMap(): Promise<string> {
  const names = new Map(
    (await (current as unknown as { getProvinces(): Promise<{ code: string; name: string }[]> }).getProvinces()).map((p) => [p.code, p.name]),
  );
  const provinces = readBoundaries(SEED_DIR, "provinsi").map((b) => {
    const polygons = toMultiPolygon(decodeShape(encodeRings(b.rings)), SIMPLIFY_DEGREES);
    const d = polygons
      .flatMap((polygon) => polygon.filter((ring) => area(ring) >= MIN_RING_AREA))
      .map(
        (ring) =>
          `M${ring
            .map(([lng, lat]) =>
              project(lng, lat)
                .map((v) => v.toFixed(1))
                .join(" "),
            )
            .join("L")}Z`,
      )
      .join("");
    return { id: b.id, name: names.get(b.id) ?? b.id, d };
  });
  const width = (MAP_BOX.east - MAP_BOX.west) * MAP_BOX.scale;
  const height = (MAP_BOX.north - MAP_BOX.south) * MAP_BOX.scale;
  return `${JSON.stringify({ box: MAP_BOX, viewBox: `0 0 ${width} ${height}`, provinces: provinces.filter((p) => p.d) })}\n`;
}

export const MAP_FILE = join(root, "src", "site", "map.json");

if (isMain(import.meta.url)) {
  const json = await buildMap();
  writeFileSync(MAP_FILE, json);
  console.log(`src/site/map.json: ${(json.length / 1024).toFixed(1)} KB`);
}
