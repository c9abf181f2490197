/**
 * Bulk exports for paid plans, declared once: a level's whole dataset as a file, the export's
 * manifest, its LICENSE, and the code mapping file of an earlier edition. Streamed from R2
 * (./service.ts); REST only (no MCP tool: a file is for a program to store, not for an agent's
 * context); admitted and metered like every data call, one call per request.
 */
import { z } from "zod";
import { defineEndpoint, defineFileEndpoint, type FileAnswer } from "../../data/endpoint";
import { LEVELS } from "../codes";
import { WILAYAH_DATA } from "../version";
import {
  dataFile,
  downloadName,
  EXPORT_FORMAT_NAMES,
  type ExportFormat,
  LICENSE_FILE,
  MAPPING_FORMAT_NAMES,
  MAPPING_STATUSES,
  type MappingFormat,
  mappingDownloadName,
} from "./files";
import { type ExportFile, exportFile, exportManifest, type MappingDownload, mappingDownload } from "./service";

const formats = EXPORT_FORMAT_NAMES as [ExportFormat, ...ExportFormat[]];

const exportInput = z.strictObject({
  level: z.enum(LEVELS).describe("Which level: provinsi, kabupaten (kabupaten/kota), kecamatan or kelurahan (kelurahan/desa)"),
  format: z
    .enum(formats)
    .describe(
      "csv (RFC 4180, a header row, UTF-8), json ({meta, data}: the list answer's records), geojson (a FeatureCollection, each region with its boundary) or fgb (FlatGeobuf with a spatial index: the regions with a boundary; GIS tools read it by range requests at /wilayah/export/{level}.fgb)",
    ),
});

/** A file of the export as a download: named after what it holds and the export, with its checksum. */
function download(file: ExportFile): FileAnswer {
  return {
    body: file.body,
    contentType: file.entry.media_type,
    filename: downloadName(file.exportId, file.entry.name),
    size: file.entry.size,
    headers: { etag: `"${file.entry.sha256}"`, "x-checksum-sha256": file.entry.sha256, "x-export-id": file.exportId },
  };
}

/** A code mapping file as a download: named after the editions it maps between and the export, with its checksum. */
function mappingAnswer(file: MappingDownload): FileAnswer {
  return {
    body: file.body,
    contentType: file.entry.media_type,
    filename: mappingDownloadName(file.exportId, file.entry),
    size: file.entry.size,
    headers: { etag: `"${file.entry.sha256}"`, "x-checksum-sha256": file.entry.sha256, "x-export-id": file.exportId },
  };
}

const mappingFormats = MAPPING_FORMAT_NAMES as [MappingFormat, ...MappingFormat[]];

const PAID = "For paid plans (the free plan answers 403 PLAN_REQUIRED); each request counts as one call.";

export const exportEndpoints = [
  defineFileEndpoint({
    path: "/wilayah/export",
    description: `Bulk export: every region of one level as one file to load into your own database. CSV, JSON, GeoJSON or FlatGeobuf with each region's boundary (MultiPolygon, as /wilayah/{id}/boundary answers it); active and retired regions (is_active 0). Use it instead of paging through the lists when you need the whole dataset; its rows are the list endpoints' records. The answer is streamed, names the data version (x-data-version, and the file name), and carries its SHA-256 (x-checksum-sha256, etag); the licence (ODbL, with MIT sources) is GET /wilayah/export/license, sizes and checksums of every file GET /wilayah/export/manifest. ${PAID}`,
    tag: "Exports",
    plans: "paid",
    errors: ["NOT_FOUND"],
    input: exportInput,
    // Media types without parameters, as the API document keys them (the answers say charset=utf-8).
    media: {
      "text/csv": "format=csv: a header row, then one region a line (RFC 4180, UTF-8)",
      "application/json": "format=json: {meta, data}, data being the list answers' records",
      "application/geo+json": "format=geojson: an RFC 7946 FeatureCollection, each region a Feature with its boundary",
      "application/flatgeobuf": "format=fgb: FlatGeobuf 3 with a packed Hilbert R-tree index, EPSG:4326, the regions that have a boundary",
    },
    version: WILAYAH_DATA,
    handler: async (q, { env }) => download(await exportFile(env.EXPORTS, dataFile(q.level, q.format))),
  }),
  defineEndpoint({
    path: "/wilayah/export/manifest",
    tool: null,
    description: `The current bulk export's manifest: its id and data version, the licence in one line, and every file (level, format, media type, number of regions, size in bytes, SHA-256, and the request that downloads it). Use it to check a download or to see whether a new export exists. ${PAID}`,
    tag: "Exports",
    plans: "paid",
    errors: ["NOT_FOUND"],
    input: z.strictObject({}),
    output: z.object({
      data: z.object({
        export_id: z.string().describe("Changes with the data: the seed's and the village boundaries' checksums"),
        data_version: z.string(),
        license: z.string(),
        files: z.array(
          z.object({
            name: z.string(),
            level: z.enum(LEVELS).nullable(),
            format: z.enum(formats).nullable(),
            media_type: z.string(),
            records: z.number().int().nullable().describe("Regions in the file (null for LICENSE)"),
            size: z.number().int().describe("Bytes"),
            sha256: z.string().describe("Hex SHA-256 of the file's bytes, also its etag"),
            download: z.string().describe("The request that downloads it"),
          }),
        ),
        mappings: z
          .array(
            z.object({
              name: z.string(),
              from: z.string().describe("The edition whose codes it maps"),
              to: z.string().describe("The current edition it maps them to"),
              format: z.enum(mappingFormats),
              media_type: z.string(),
              records: z.number().int().describe("Rows (a code with several successors has one row each)"),
              size: z.number().int().describe("Bytes"),
              sha256: z.string().describe("Hex SHA-256 of the file's bytes, also its etag"),
              download: z.string().describe("The request that downloads it"),
            }),
          )
          .describe("The code mapping files (GET /wilayah/changes/mapping), one per earlier edition and format"),
      }),
    }),
    // Not in the response cache: its key names the data version, which a new seed may keep while the
    // export id changes; the answer is one small R2 read.
    cacheSeconds: 0,
    version: WILAYAH_DATA,
    handler: async (_q, { env }) => {
      const m = await exportManifest(env.EXPORTS);
      return {
        data: {
          export_id: m.export_id,
          data_version: m.data_version,
          license: m.license,
          mappings: (m.mappings ?? []).map((f) => ({ ...f, download: `/api/v1/wilayah/changes/mapping?from=${f.from}&format=${f.format}` })),
          files: m.files.map((f) => ({
            ...f,
            download: f.level && f.format ? `/api/v1/wilayah/export?level=${f.level}&format=${f.format}` : "/api/v1/wilayah/export/license",
          })),
        },
      };
    },
  }),
  defineFileEndpoint({
    path: "/wilayah/export/license",
    description: `The LICENSE file of the current bulk export (plain text): the data is a derivative database of idn-area-data under the Open Database License (ODbL) 1.0; coordinates, boundaries and postal codes come from cahya dsn's repositories under the MIT licence, whose notice it carries. Ship it with any copy of the data. ${PAID}`,
    tag: "Exports",
    plans: "paid",
    errors: ["NOT_FOUND"],
    input: z.strictObject({}),
    media: { "text/plain": "The licence terms (UTF-8)" },
    version: WILAYAH_DATA,
    handler: async (_q, { env }) => download(await exportFile(env.EXPORTS, LICENSE_FILE)),
  }),
];

/**
 * The code mapping file of an earlier edition: a file endpoint like the exports (same plans, one
 * call, same headers). Its path is under /wilayah/changes, before `/wilayah/:id` in the catalogue.
 */
export const mappingEndpoint = defineFileEndpoint({
  path: "/wilayah/changes/mapping",
  description: `Migrate a database keyed on old region codes: every code of an earlier edition of the code list (all four levels) with its code today, as one file: old_code, status (same, renamed, recoded, merged, split, ambiguous, retired), new_code, basis and confidence (the answers /wilayah/convert gives), plus the names and level in CSV and JSON. A code with several successors (split, ambiguous) has one row each; a retired code has no new_code. format=sql is a script creating the table wilayah_code_map(old_code, new_code, status, basis, confidence) for PostgreSQL, MySQL or SQLite; docs/api.md "Migrate your database" has the one UPDATE that migrates your table. The editions: GET /wilayah/editions (the current one has nothing to map: 400). Streamed, with the data version (x-data-version, the file name) and its SHA-256 (x-checksum-sha256, etag); sizes and checksums in GET /wilayah/export/manifest. ${PAID}`,
  tag: "Exports",
  plans: "paid",
  errors: ["NOT_FOUND"],
  input: z.strictObject({
    from: z.string().max(20).describe("The edition your codes come from (GET /wilayah/editions lists them); not the current one"),
    format: z
      .enum(mappingFormats)
      .describe(
        "csv (RFC 4180, a header row, UTF-8), json ({meta, data}: one object a row) or sql (CREATE TABLE wilayah_code_map and multi-row INSERTs, for PostgreSQL, MySQL and SQLite)",
      ),
  }),
  media: {
    "text/csv": `format=csv: a header row (old_code, old_name, level, status, new_code, new_name, basis, confidence), then one row a line (RFC 4180, UTF-8); status is one of ${MAPPING_STATUSES.join(", ")}`,
    "application/json": "format=json: {meta: {from, to, export_id, data_version, license, total}, data: [the rows, as the CSV's columns]}",
    "application/sql":
      "format=sql: CREATE TABLE wilayah_code_map (old_code, new_code, status, basis, confidence), an index on old_code, then INSERTs of 500 rows",
  },
  version: WILAYAH_DATA,
  handler: async (q, { env, reads }) => mappingAnswer(await mappingDownload(env.EXPORTS, reads, q.from, q.format)),
});
