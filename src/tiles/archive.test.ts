import { createHash } from "node:crypto";
import { PMTiles, zxyToTileId as referenceTileId } from "pmtiles";
import { describe, expect, it } from "vitest";
import { COMPRESSION, decodeDirectory, decodeHeader, encodeDirectory, findEntry, layoutArchive, ROOT_BYTES, TILE_TYPE, zxyToTileId } from "./archive";

const tileBytes = (z: number, x: number, y: number, text = `${z}/${x}/${y}`) => {
  const data = new TextEncoder().encode(text);
  return { tileId: zxyToTileId(z, x, y), data, hash: createHash("sha256").update(data).digest("hex") };
};

/** The `pmtiles` package's reader over bytes in memory (its Source interface). */
function reader(parts: Uint8Array[]) {
  const all = Buffer.concat(parts);
  return new PMTiles({
    getKey: () => "memory",
    getBytes: async (offset: number, length: number) => ({ data: all.buffer.slice(all.byteOffset + offset, all.byteOffset + offset + length) }),
  });
}

const HEADER = { minZoom: 0, maxZoom: 12, bounds: [95, -11, 141, 6] as [number, number, number, number], center: [118, -2.5, 4] as [number, number, number] };

describe("PMTiles v3 archive", () => {
  it("numbers tiles as the specification's reference reader does (Hilbert curve per zoom)", () => {
    for (const [z, x, y] of [
      [0, 0, 0],
      [1, 1, 0],
      [3, 6, 4],
      [10, 820, 531],
      [12, 3301, 2130],
      [12, 4095, 4095],
    ]) {
      expect(zxyToTileId(z, x, y), `${z}/${x}/${y}`).toBe(referenceTileId(z, x, y));
    }
  });

  it("round-trips directories, offsets run on and run lengths included", () => {
    const entries = [
      { tileId: 5, offset: 0, length: 10, runLength: 1 },
      { tileId: 6, offset: 10, length: 20, runLength: 3 },
      { tileId: 100, offset: 0, length: 10, runLength: 1 },
      { tileId: 2 ** 40, offset: 2 ** 33, length: 7, runLength: 1 },
    ];
    expect(decodeDirectory(encodeDirectory(entries))).toEqual(entries);
    expect(findEntry(entries, 7)).toEqual(entries[1]);
    expect(findEntry(entries, 9)).toBeNull();
    expect(findEntry(entries, 4)).toBeNull();
  });

  it("is read by the pmtiles package: header, metadata, tiles, runs of one content and missing tiles", async () => {
    const same = "the same bytes";
    const tiles = [tileBytes(0, 0, 0), tileBytes(5, 26, 15), tileBytes(12, 3301, 2130), tileBytes(12, 3302, 2130, same), tileBytes(12, 3303, 2130, same)];
    const parts = layoutArchive(tiles, { name: "test", vector_layers: [] }, { ...HEADER, tileCompression: COMPRESSION.none, tileType: TILE_TYPE.mvt });
    const pm = reader(parts);
    const header = await pm.getHeader();
    expect(header).toMatchObject({ specVersion: 3, minZoom: 0, maxZoom: 12, tileType: 1, numAddressedTiles: 5, clustered: true });
    expect(await pm.getMetadata()).toEqual({ name: "test", vector_layers: [] });
    for (const [z, x, y, text] of [
      [0, 0, 0, "0/0/0"],
      [5, 26, 15, "5/26/15"],
      [12, 3301, 2130, "12/3301/2130"],
      [12, 3303, 2130, same],
    ] as const) {
      const got = await pm.getZxy(z, x, y);
      expect(new TextDecoder().decode(got?.data), `${z}/${x}/${y}`).toBe(text);
    }
    expect(await pm.getZxy(12, 3304, 2130)).toBeUndefined();
    expect(decodeHeader(parts[0])).toMatchObject({ tileContents: 4, addressedTiles: 5 });
  });

  it("splits a directory too large for the first 16 KB into leaves the pmtiles package follows", async () => {
    const tiles = [];
    for (let x = 0; x < 128; x++) for (let y = 0; y < 128; y++) tiles.push(tileBytes(12, 3000 + x, 2000 + y));
    const parts = layoutArchive(tiles, {}, { ...HEADER, tileCompression: COMPRESSION.none, tileType: TILE_TYPE.mvt });
    const header = decodeHeader(parts[0]);
    expect(header.leavesLength).toBeGreaterThan(0);
    expect(header.rootOffset + header.rootLength).toBeLessThanOrEqual(ROOT_BYTES);
    const pm = reader(parts);
    for (const [x, y] of [
      [3000, 2000],
      [3077, 2101],
      [3127, 2127],
    ]) {
      expect(new TextDecoder().decode((await pm.getZxy(12, x, y))?.data)).toBe(`12/${x}/${y}`);
    }
  });
});
