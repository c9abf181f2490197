/**
 * Bulk exports: the files the seed side builds and uploads to R2 (scripts/seed/exports.ts) and the
 * Worker streams (./service.ts), named in one place. Imports only codes.ts: Node scripts import this
 * file directly.
 */
import type { Level } from "../codes.ts";

export const EXPORT_FORMATS = {
  csv: { extension: "csv", mediaType: "text/csv; charset=utf-8" },
  json: { extension: "json", mediaType: "application/json" },
  geojson: { extension: "geojson", mediaType: "application/geo+json" },
  // FlatGeobuf with its spatial index (scripts/seed/fgb.ts): GIS tools open it by URL and read it by range requests.
  fgb: { extension: "fgb", mediaType: "application/flatgeobuf" },
} as const;
export type ExportFormat = keyof typeof EXPORT_FORMATS;
export const EXPORT_FORMAT_NAMES = Object.keys(EXPORT_FORMATS) as ExportFormat[];

/**
 * Each level's columns, in order: the fields of the API's list answers (LEVEL_RECORD in
 * ../schemas.ts; src/wilayah/export/files.test.ts keeps the two equal), so an export row is what
 * the list endpoint answers for that region. JSON and GeoJSON hold `population` as the API does
 * (`{male, female, total}` or null); CSV, being flat, writes it as three columns (csvColumns).
 */
const STATS = ["area_km2", "population", "density_per_km2"] as const;
/**
 * Columns of the files only, last: `bps_code`, the newest BPS code leading to the region (the first
 * of its by-id answer's `bps_codes`; empty when it has none). Not in the list answers, where it would
 * cost a read per region of every page.
 */
export const EXPORT_ONLY_COLUMNS: Record<Level, readonly string[]> = {
  provinsi: [],
  kabupaten: ["bps_code"],
  kecamatan: ["bps_code"],
  kelurahan: ["bps_code"],
};
export const EXPORT_COLUMNS: Record<Level, readonly string[]> = {
  provinsi: ["id", "code", "name", "alt_name", "lat", "lng", "is_active", ...STATS],
  kabupaten: ["id", "code", "name", "alt_name", "lat", "lng", "is_active", "provinsi_id", "type", ...STATS, ...EXPORT_ONLY_COLUMNS.kabupaten],
  kecamatan: ["id", "code", "name", "alt_name", "lat", "lng", "is_active", "kabupaten_id", ...EXPORT_ONLY_COLUMNS.kecamatan],
  kelurahan: ["id", "code", "name", "alt_name", "lat", "lng", "is_active", "kecamatan_id", "postal_code", ...EXPORT_ONLY_COLUMNS.kelurahan],
};

/** The population's parts, in the order CSV writes them (`population_male`, ...). */
export const POPULATION_PARTS = ["male", "female", "total"] as const;

/** A level's CSV header: EXPORT_COLUMNS with `population` as population_male, population_female, population_total. */
export function csvColumns(level: Level): string[] {
  return EXPORT_COLUMNS[level].flatMap((c) => (c === "population" ? POPULATION_PARTS.map((p) => `population_${p}`) : [c]));
}

/** Layout of the bucket and the files' columns; a new layout is a new prefix, so a Worker never reads files it does not understand. */
// v2: provinsi and kabupaten/kota gained population and area (files of v1 lack them).
// v3: kabupaten/kota, kecamatan and kelurahan/desa gained bps_code (issue 39).
// v4: every level gained a FlatGeobuf file (<level>.fgb, issue 53).
export const LAYOUT = "v4";

/**
 * The export's id: the seed's checksum and the village boundaries' (seed/manifest.json), so new
 * data is a new folder, and a Worker serves only the export of the data it holds itself.
 */
export function exportId(seed: { checksum: string; boundaries: { kelurahan: { checksum: string } } }): string {
  return `${seed.checksum.slice(0, 8)}${seed.boundaries.kelurahan.checksum.slice(0, 8)}`;
}

export const LICENSE_FILE = "LICENSE";
export const MANIFEST_FILE = "manifest.json";

/** The object key of one file of an export. */
export const exportKey = (id: string, file: string) => `wilayah/${LAYOUT}/${id}/${file}`;

/** A level's file in the bucket. */
export const dataFile = (level: Level, format: ExportFormat) => `${level}.${EXPORT_FORMATS[format].extension}`;

/** The name a download is saved under: what it holds and the export (data version) it belongs to. */
export const downloadName = (id: string, file: string) => (file === LICENSE_FILE ? `wilayah-${id}-LICENSE.txt` : `wilayah-${file.replace(".", `-${id}.`)}`);

/** manifest.json: what an export holds. */
export type ExportManifest = {
  export_id: string;
  data_version: string;
  /** One line; LICENSE has the full terms. */
  license: string;
  files: ExportFileEntry[];
  /** The code mapping files (absent from exports built before they existed: then none is served). */
  mappings?: MappingFileEntry[];
};

export type ExportFileEntry = {
  /** Its name in the export (`kabupaten.csv`, `LICENSE`). */
  name: string;
  level: Level | null;
  format: ExportFormat | null;
  media_type: string;
  /** Regions in it (null for LICENSE). */
  records: number | null;
  size: number;
  sha256: string;
};

// ---------------------------------------------------------------- code mapping files

/**
 * The code mapping of an edition (GET /wilayah/changes/mapping): every code of that edition of the
 * code list with its code today, one file per earlier edition and format, built with the export
 * from the seed's region history (scripts/seed/mapping.ts) and stored beside its files.
 */
export const MAPPING_FORMATS = {
  csv: { extension: "csv", mediaType: "text/csv; charset=utf-8" },
  json: { extension: "json", mediaType: "application/json" },
  sql: { extension: "sql", mediaType: "application/sql; charset=utf-8" },
} as const;
export type MappingFormat = keyof typeof MAPPING_FORMATS;
export const MAPPING_FORMAT_NAMES = Object.keys(MAPPING_FORMATS) as MappingFormat[];

/**
 * What became of a code of an earlier edition (docs/api.md, "Migrate your database"): `same` and
 * `renamed` keep their code; `recoded` (one successor, its own) and `merged` (one successor that
 * other codes of that edition also went to, or that already existed) have one new code; `split` and
 * `ambiguous` (several candidates nothing tells apart) have one row per successor; `retired` none.
 */
export const MAPPING_STATUSES = ["same", "renamed", "recoded", "merged", "split", "ambiguous", "retired"] as const;
export type MappingStatus = (typeof MAPPING_STATUSES)[number];

/** The columns of the CSV and JSON files, in order; the SQL file's table has MAPPING_SQL_COLUMNS. */
export const MAPPING_COLUMNS = ["old_code", "old_name", "level", "status", "new_code", "new_name", "basis", "confidence"] as const;
export const MAPPING_SQL_TABLE = "wilayah_code_map";
export const MAPPING_SQL_COLUMNS = ["old_code", "new_code", "status", "basis", "confidence"] as const;

/** The mapping file of an edition in the bucket. */
export const mappingFile = (from: string, format: MappingFormat) => `mapping-${from}.${MAPPING_FORMATS[format].extension}`;

/** The name a mapping download is saved under: the editions it maps between and the export (data version) it belongs to. */
export const mappingDownloadName = (id: string, entry: Pick<MappingFileEntry, "from" | "to" | "format">) =>
  `wilayah-mapping-${entry.from}-to-${entry.to}-${id}.${MAPPING_FORMATS[entry.format].extension}`;

export type MappingFileEntry = {
  /** Its name in the export (`mapping-2022.csv`). */
  name: string;
  /** The edition whose codes it maps, and the current edition they are mapped to. */
  from: string;
  to: string;
  format: MappingFormat;
  media_type: string;
  /** Rows (a code with several successors has one row each). */
  records: number;
  size: number;
  sha256: string;
};

/** Every object of an export but the manifest: its files, then its mapping files. */
export const manifestObjects = (m: ExportManifest): { name: string; media_type: string; size: number }[] => [...m.files, ...(m.mappings ?? [])];
