/**
 * Bulk exports for paid plans, declared once: a level's whole dataset as a file, the export's
 * manifest, and its LICENSE. Streamed from R2 (./service.ts); REST only (no MCP tool: a file is for
 * a program to store, not for an agent's context); admitted and metered like every data call, one
 * call per request.
 */
import { z } from "zod";
import { defineEndpoint, defineFileEndpoint, type FileAnswer } from "../../data/endpoint";
import { LEVELS } from "../codes";
import { WILAYAH_DATA } from "../version";
import { dataFile, downloadName, EXPORT_FORMAT_NAMES, type ExportFormat, LICENSE_FILE } from "./files";
import { type ExportFile, exportFile, exportManifest } from "./service";

const formats = EXPORT_FORMAT_NAMES as [ExportFormat, ...ExportFormat[]];

const exportInput = z.strictObject({
  level: z.enum(LEVELS).describe("Which level: provinsi, kabupaten (kabupaten/kota), kecamatan or kelurahan (kelurahan/desa)"),
  format: z
    .enum(formats)
    .describe(
      "csv (RFC 4180, a header row, UTF-8), json ({meta, data}: the list answer's records) or geojson (a FeatureCollection, each region with its boundary)",
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

const PAID = "For paid plans (the free plan answers 403 PLAN_REQUIRED); each request counts as one call.";

export const exportEndpoints = [
  defineFileEndpoint({
    path: "/wilayah/export",
    description: `Bulk export: every region of one level as one file to load into your own database. CSV, JSON or GeoJSON with each region's boundary (MultiPolygon, as /wilayah/{id}/boundary answers it); active and retired regions (is_active 0). Use it instead of paging through the lists when you need the whole dataset; its rows are the list endpoints' records. The answer is streamed, names the data version (x-data-version, and the file name), and carries its SHA-256 (x-checksum-sha256, etag); the licence (ODbL, with MIT sources) is GET /wilayah/export/license, sizes and checksums of every file GET /wilayah/export/manifest. ${PAID}`,
    tag: "Exports",
    plans: "paid",
    errors: ["NOT_FOUND"],
    input: exportInput,
    // Media types without parameters, as the API document keys them (the answers say charset=utf-8).
    media: {
      "text/csv": "format=csv: a header row, then one region a line (RFC 4180, UTF-8)",
      "application/json": "format=json: {meta, data}, data being the list answers' records",
      "application/geo+json": "format=geojson: an RFC 7946 FeatureCollection, each region a Feature with its boundary",
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
          ...m,
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
