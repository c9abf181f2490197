/**
 * Vector tiles read out of the PMTiles archive in R2 (binding EXPORTS, key from the bundled
 * seed/manifest.json: a Worker serves only the tiles of the data it holds). The archive's first
 * 16 KB (header, root directory, metadata) are read once per isolate, leaf directories are kept in
 * an LRU, so a tile costs one ranged R2 read. Knows nothing of HTTP, keys or metering (the routes
 * in src/routes/tiles.ts do).
 */
import { LRUCache } from "lru-cache";
import seed from "../../seed/manifest.json";
import { ApiError } from "../lib/errors";
import { DATA_VERSION } from "../wilayah/version";
import { decodeDirectory, decodeHeader, type Entry, findEntry, HEADER_BYTES, type Header, ROOT_BYTES, zxyToTileId } from "./archive";
import { LABEL_LAYER, LEVEL_MINZOOM, TILES_ATTRIBUTION, TILES_MAXZOOM, type TilesMetadata, tilesId, tilesKey } from "./files";

/** The tiles of the data this Worker was built with. */
export const CURRENT_TILES = tilesId(seed);

type Archive = { key: string; header: Header; root: Entry[]; metadata: TilesMetadata };

const opened = new Map<string, Promise<Archive>>();
/** Leaf directories (a few KB to 40 KB each): a map session touches a handful. */
const leaves = new LRUCache<string, Entry[]>({ max: 256 });

const notUploaded = () =>
  new ApiError(
    "SERVICE_UNAVAILABLE",
    `The vector tiles of the current data (${CURRENT_TILES}) are not available on this deployment yet: they are uploaded after each data update. Try again later.`,
  );

async function range(bucket: R2Bucket, key: string, offset: number, length: number): Promise<Uint8Array> {
  const object = await bucket.get(key, { range: { offset, length } });
  if (!object) throw notUploaded();
  return new Uint8Array(await object.arrayBuffer());
}

async function openArchive(bucket: R2Bucket, key: string): Promise<Archive> {
  const head = await range(bucket, key, 0, ROOT_BYTES);
  const header = decodeHeader(head.subarray(0, HEADER_BYTES));
  const root = decodeDirectory(head.subarray(header.rootOffset, header.rootOffset + header.rootLength));
  const metaEnd = header.metadataOffset + header.metadataLength;
  const metaBytes =
    metaEnd <= head.length ? head.subarray(header.metadataOffset, metaEnd) : await range(bucket, key, header.metadataOffset, header.metadataLength);
  const metadata = JSON.parse(new TextDecoder().decode(metaBytes)) as TilesMetadata;
  return { key, header, root, metadata };
}

/** The current archive, opened once per isolate (a failed open is forgotten, so an upload shows at once). */
function archive(bucket: R2Bucket): Promise<Archive> {
  const key = tilesKey(CURRENT_TILES);
  let a = opened.get(key);
  if (!a) {
    a = openArchive(bucket, key);
    opened.set(key, a);
    a.catch(() => opened.delete(key));
  }
  return a;
}

/** For tests: forget the opened archive (after an upload or a removal in the same isolate). */
export function forgetArchive(): void {
  opened.clear();
  leaves.clear();
}

export type TileCoords = { z: number; x: number; y: number };

/**
 * A tile's coordinates from the path's text: integers in the pyramid (0 <= z <= TILES_MAXZOOM,
 * 0 <= x, y < 2^z), else 400 saying what is allowed. Deeper zooms are refused rather than answered
 * empty: a map asking for them has the wrong maxzoom, and an empty answer would draw nothing.
 */
export function tileCoords(z: string, x: string, y: string): TileCoords {
  const bad = (message: string) => new ApiError("INVALID_QUERY", message, { details: [{ path: "z/x/y", message }] });
  if (![z, x, y].every((v) => /^\d{1,8}$/.test(v))) throw bad(`The tile address must be /tiles/{z}/{x}/{y}.mvt with whole numbers; got ${z}/${x}/${y}.`);
  const [zn, xn, yn] = [Number(z), Number(x), Number(y)];
  if (zn > TILES_MAXZOOM) {
    throw bad(
      `Zoom ${zn} is outside the tiles' pyramid (zoom 0 to ${TILES_MAXZOOM}); maps draw deeper zooms from zoom ${TILES_MAXZOOM} tiles (the TileJSON's maxzoom).`,
    );
  }
  const n = 2 ** zn;
  if (xn >= n || yn >= n) throw bad(`Tile ${zn}/${xn}/${yn} is outside the pyramid: at zoom ${zn}, x and y go from 0 to ${n - 1}.`);
  return { z: zn, x: xn, y: yn };
}

/** A tile as stored (gzipped MVT), or null when the archive holds none there (open sea, outside Indonesia). */
export async function readTile(bucket: R2Bucket, { z, x, y }: TileCoords): Promise<Uint8Array | null> {
  const a = await archive(bucket);
  const id = zxyToTileId(z, x, y);
  let dir = a.root;
  for (let depth = 0; depth < 4; depth++) {
    const e = findEntry(dir, id);
    if (!e) return null;
    if (e.runLength > 0) return range(bucket, a.key, a.header.tileDataOffset + e.offset, e.length);
    const leafKey = `${a.key}:${e.offset}`;
    let leaf = leaves.get(leafKey);
    if (!leaf) {
      leaf = decodeDirectory(await range(bucket, a.key, a.header.leavesOffset + e.offset, e.length));
      leaves.set(leafKey, leaf);
    }
    dir = leaf;
  }
  return null;
}

/** TileJSON 3.0.0 for the tiles (`tiles` names this version, so a browser may keep tiles for good). */
export async function tileJson(bucket: R2Bucket, origin: string) {
  const a = await archive(bucket);
  const { bounds, center, minZoom, maxZoom } = a.header;
  return {
    tilejson: "3.0.0",
    name: a.metadata.name,
    description: a.metadata.description,
    version: "1.0.0",
    attribution: TILES_ATTRIBUTION,
    scheme: "xyz",
    tiles: [tileUrl(origin)],
    minzoom: minZoom,
    maxzoom: maxZoom,
    bounds,
    center,
    vector_layers: a.metadata.vector_layers,
    data_version: a.metadata.data_version ?? DATA_VERSION,
    tiles_id: a.metadata.tiles_id,
  };
}

export const tileUrl = (origin: string) => `${origin}/tiles/{z}/{x}/{y}.mvt?v=${CURRENT_TILES}`;

const COLORS = {
  background: "#e3eef7",
  land: "#f7f5ef",
  provinsi: "#3b4a5a",
  kabupaten: "#5d7287",
  kecamatan: "#8aa0b4",
  kelurahan: "#b5c4d1",
  text: "#1d2b36",
};

/**
 * A MapLibre style of our layers on a plain background: no third-party basemap, glyphs or
 * sprites, so a map works from this API alone. Labels use the browser's own fonts (MapLibre draws
 * glyphs locally when a style names no glyph server).
 */
export function mapStyle(origin: string, maxzoom: number = TILES_MAXZOOM) {
  const line = (level: "provinsi" | "kabupaten" | "kecamatan" | "kelurahan", width: number) => ({
    id: `${level}-line`,
    type: "line",
    source: "wilayah",
    "source-layer": level,
    minzoom: LEVEL_MINZOOM[level],
    paint: { "line-color": COLORS[level], "line-width": width },
  });
  const labelsOf = (level: "provinsi" | "kabupaten" | "kecamatan" | "kelurahan", maxzoom: number | null, size: number) => ({
    id: `${level}-label`,
    type: "symbol",
    source: "wilayah",
    "source-layer": LABEL_LAYER,
    minzoom: LEVEL_MINZOOM[level],
    ...(maxzoom !== null ? { maxzoom } : {}),
    filter: ["==", ["get", "level"], level],
    layout: { "text-field": ["get", "name"], "text-font": ["sans-serif"], "text-size": size, "text-max-width": 8 },
    paint: { "text-color": COLORS.text, "text-halo-color": "#ffffff", "text-halo-width": 1.2 },
  });
  return {
    version: 8,
    name: "Wilayah API boundaries",
    metadata: { "wilayah:tiles_id": CURRENT_TILES, "wilayah:data_version": DATA_VERSION },
    sources: {
      wilayah: {
        type: "vector",
        tiles: [tileUrl(origin)],
        minzoom: 0,
        maxzoom,
        bounds: [94.9, -11.1, 141.1, 6.1],
        attribution: TILES_ATTRIBUTION,
        promoteId: { provinsi: "code", kabupaten: "code", kecamatan: "code", kelurahan: "code", label: "code" },
      },
    },
    layers: [
      { id: "background", type: "background", paint: { "background-color": COLORS.background } },
      { id: "land", type: "fill", source: "wilayah", "source-layer": "provinsi", paint: { "fill-color": COLORS.land } },
      {
        id: "kabupaten-density",
        type: "fill",
        source: "wilayah",
        "source-layer": "kabupaten",
        layout: { visibility: "none" },
        paint: {
          "fill-color": [
            "step",
            ["coalesce", ["get", "density"], -1],
            "#dddddd",
            0,
            "#ffffcc",
            50,
            "#c7e9b4",
            100,
            "#7fcdbb",
            250,
            "#41b6c4",
            500,
            "#1d91c0",
            1000,
            "#225ea8",
            5000,
            "#0c2c84",
          ],
          "fill-opacity": 0.75,
        },
      },
      line("kelurahan", 0.5),
      line("kecamatan", 0.8),
      line("kabupaten", 1.2),
      line("provinsi", 1.8),
      labelsOf("provinsi", 7, 13),
      labelsOf("kabupaten", 10, 12),
      labelsOf("kecamatan", 13, 11),
      labelsOf("kelurahan", null, 10),
    ],
  };
}
