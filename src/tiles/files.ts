/**
 * The vector tiles' archive: what the seed side builds (scripts/seed/tiles.ts) and the Worker
 * serves (./service.ts), named in one place. Imports only codes.ts: Node scripts import this file.
 */
import type { Level } from "../wilayah/codes.ts";

/** Layout of the archive (layers, fields, zooms); a new layout is a new prefix in the bucket. */
export const TILES_LAYOUT = "v1";

/** The first zoom each level's polygons (and labels) are in the tiles. */
export const LEVEL_MINZOOM: Record<Level, number> = { provinsi: 0, kabupaten: 4, kecamatan: 7, kelurahan: 10 };

/** The deepest zoom stored; maps draw deeper zooms from these tiles (overzoom). */
export const TILES_MAXZOOM = 12;

/** The labels layer: one point per region at its centroid (the API's lat/lng), from its level's first zoom. */
export const LABEL_LAYER = "label";

/** Tile coordinates' extent and the simplification tolerance (geojson-vt's units: 1/extent of a tile side, times 4096/extent). */
export const TILE_EXTENT = 4096;

/** Same id as the bulk export's: the seed's and the village boundaries' checksums (src/wilayah/export/files.ts). */
export function tilesId(seed: { checksum: string; boundaries: { kelurahan: { checksum: string } } }): string {
  return `${seed.checksum.slice(0, 8)}${seed.boundaries.kelurahan.checksum.slice(0, 8)}`;
}

export const TILES_FILE = "wilayah.pmtiles";

/** The archive's key in the EXPORTS bucket (beside the bulk exports, under its own prefix). */
export const tilesKey = (id: string) => `tiles/${TILES_LAYOUT}/${id}/${TILES_FILE}`;

/** What each layer's features carry (TileJSON's vector_layers). */
export const LAYER_FIELDS: Record<Level | typeof LABEL_LAYER, Record<string, string>> = {
  provinsi: { code: "String", name: "String", level: "String", population: "Number", area_km2: "Number", density: "Number" },
  kabupaten: {
    code: "String",
    name: "String",
    level: "String",
    provinsi_id: "String",
    type: "String",
    population: "Number",
    area_km2: "Number",
    density: "Number",
  },
  kecamatan: { code: "String", name: "String", level: "String", provinsi_id: "String", kabupaten_id: "String" },
  kelurahan: { code: "String", name: "String", level: "String", provinsi_id: "String", kabupaten_id: "String", kecamatan_id: "String" },
  label: { code: "String", name: "String", level: "String" },
};

/** The archive's metadata (PMTiles JSON metadata; TileJSON fields, plus our own). */
export type TilesMetadata = {
  name: string;
  format: "pbf";
  attribution: string;
  description: string;
  version: string;
  tiles_id: string;
  data_version: string;
  vector_layers: { id: string; fields: Record<string, string>; minzoom: number; maxzoom: number; description: string }[];
};

export const TILES_ATTRIBUTION = "Wilayah API: idn-area-data (ODbL), boundaries from cahyadsn/wilayah_boundaries (MIT)";
