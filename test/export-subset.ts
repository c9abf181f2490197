/**
 * The small bulk export test/setup/exports-subset.ts builds (provinsi and kabupaten/kota, every
 * format, FlatGeobuf included, and the code mapping files of one edition for Papua and Papua Barat, by the real code),
 * put into or taken out of the test R2 as an operator's upload would.
 */
import { env } from "cloudflare:workers";
import { exportKey } from "../src/wilayah/export/files";
import { CURRENT_EXPORT } from "../src/wilayah/export/service";
import kabupatenCsv from "./.generated/exports/kabupaten.csv?raw";
import kabupatenFgb from "./.generated/exports/kabupaten.fgb.b64?raw";
import kabupatenGeojson from "./.generated/exports/kabupaten.geojson?raw";
import kabupatenJson from "./.generated/exports/kabupaten.json?raw";
import license from "./.generated/exports/LICENSE?raw";
import manifestText from "./.generated/exports/manifest.json?raw";
import mappingCsv from "./.generated/exports/mapping-2022.csv?raw";
import mappingJson from "./.generated/exports/mapping-2022.json?raw";
import mappingSql from "./.generated/exports/mapping-2022.sql?raw";
import provinsiCsv from "./.generated/exports/provinsi.csv?raw";
import provinsiFgb from "./.generated/exports/provinsi.fgb.b64?raw";
import provinsiGeojson from "./.generated/exports/provinsi.geojson?raw";
import provinsiJson from "./.generated/exports/provinsi.json?raw";

/** A file test/setup/exports-subset.ts wrote as base64 (the FlatGeobuf files are binary). */
const binary = (b64: string): Uint8Array => Uint8Array.from(atob(b64.trim()), (c) => c.charCodeAt(0));

export const EXPORT_FILES: Record<string, string | Uint8Array> = {
  "kabupaten.csv": kabupatenCsv,
  "kabupaten.fgb": binary(kabupatenFgb),
  "provinsi.fgb": binary(provinsiFgb),
  "kabupaten.json": kabupatenJson,
  "kabupaten.geojson": kabupatenGeojson,
  "provinsi.csv": provinsiCsv,
  "provinsi.json": provinsiJson,
  "provinsi.geojson": provinsiGeojson,
  LICENSE: license,
};

/** The code mapping files of the subset (MAPPING_SUBSET in test/setup/exports-subset.ts). */
export const MAPPING_FILES: Record<string, string> = {
  "mapping-2022.csv": mappingCsv,
  "mapping-2022.json": mappingJson,
  "mapping-2022.sql": mappingSql,
};

export const exportManifest = JSON.parse(manifestText);

/** Uploads the files, then the manifest (as scripts/seed/exports.ts does). */
export async function uploadExportSubset(): Promise<void> {
  for (const [name, text] of Object.entries({ ...EXPORT_FILES, ...MAPPING_FILES })) await env.EXPORTS.put(exportKey(CURRENT_EXPORT, name), text);
  await env.EXPORTS.put(exportKey(CURRENT_EXPORT, "manifest.json"), manifestText);
}

/** Removes the export (its manifest first), as before any upload. */
export async function removeExport(): Promise<void> {
  await env.EXPORTS.delete([
    exportKey(CURRENT_EXPORT, "manifest.json"),
    ...Object.keys({ ...EXPORT_FILES, ...MAPPING_FILES }).map((name) => exportKey(CURRENT_EXPORT, name)),
  ]);
}
