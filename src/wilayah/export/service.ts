/**
 * Bulk exports in R2 (binding EXPORTS): the manifest and the files of the export of the data this
 * Worker holds (its id comes from the bundled seed/manifest.json, so a Worker never serves another
 * dataset's files). Knows nothing of HTTP or plans; the declarations (./endpoints.ts) do.
 */
import seed from "../../../seed/manifest.json";
import type { RegionReads } from "../../db/reads";
import { ApiError } from "../../lib/errors";
import { checkMappingEdition } from "../history/service";
import { type ExportFileEntry, type ExportManifest, exportId, exportKey, MANIFEST_FILE, type MappingFileEntry, type MappingFormat, mappingFile } from "./files";

/** The export of the data this Worker was built with. */
export const CURRENT_EXPORT = exportId(seed);

const notUploaded = (id: string) =>
  new ApiError(
    "NOT_FOUND",
    `The bulk export of the current data (export ${id}) is not available on this deployment yet: it is uploaded after each data update. Try again later, or contact support if it stays missing.`,
  );

/** The manifest (a few KB), read on every request: one R2 read beside a download of megabytes, and an upload or a removal shows at once. */
export async function exportManifest(bucket: R2Bucket, id = CURRENT_EXPORT): Promise<ExportManifest> {
  const object = await bucket.get(exportKey(id, MANIFEST_FILE));
  if (!object) throw notUploaded(id);
  return (await object.json()) as ExportManifest;
}

export type ExportFile = { entry: ExportFileEntry; body: ReadableStream; exportId: string };

/** One file of the current export, as a stream, with its manifest entry (size, checksum, media type). */
export async function exportFile(bucket: R2Bucket, name: string): Promise<ExportFile> {
  const manifest = await exportManifest(bucket);
  const entry = manifest.files.find((f) => f.name === name);
  if (!entry) throw new ApiError("NOT_FOUND", `The bulk export ${manifest.export_id} has no file ${name}.`);
  const object = await bucket.get(exportKey(manifest.export_id, name));
  if (!object) throw notUploaded(manifest.export_id);
  return { entry, body: object.body, exportId: manifest.export_id };
}

export type MappingDownload = { entry: MappingFileEntry; body: ReadableStream; exportId: string };

/**
 * The code mapping file of an earlier edition (`from`, checked against the region history's
 * editions: INVALID_QUERY for an unknown or the current edition), as a stream, with its manifest
 * entry. NOT_FOUND when the current export has no such file (not uploaded yet, or built before
 * that edition was known).
 */
export async function mappingDownload(bucket: R2Bucket, reads: RegionReads, from: string, format: MappingFormat): Promise<MappingDownload> {
  await checkMappingEdition(reads, from);
  const manifest = await exportManifest(bucket);
  const name = mappingFile(from, format);
  const entry = manifest.mappings?.find((f) => f.name === name);
  if (!entry) {
    throw new ApiError(
      "NOT_FOUND",
      `The bulk export ${manifest.export_id} has no code mapping file ${name} yet: it is built with the export after each data update. Try again later, or contact support if it stays missing.`,
    );
  }
  const object = await bucket.get(exportKey(manifest.export_id, name));
  if (!object) throw notUploaded(manifest.export_id);
  return { entry, body: object.body, exportId: manifest.export_id };
}

/**
 * Part of a file of the current export (a range request: GIS tools read a FlatGeobuf file's header,
 * index and the features they show, not the whole file): its manifest entry first, so the caller can
 * check the range against the size and meter it before any byte is read.
 */
export async function exportFileEntry(bucket: R2Bucket, name: string): Promise<{ entry: ExportFileEntry; exportId: string }> {
  const manifest = await exportManifest(bucket);
  const entry = manifest.files.find((f) => f.name === name);
  if (!entry) throw new ApiError("NOT_FOUND", `The bulk export ${manifest.export_id} has no file ${name}.`);
  return { entry, exportId: manifest.export_id };
}

/** The bytes [offset, offset + length) of a file of an export, as a stream (the whole file without a range). */
export async function exportFileBytes(bucket: R2Bucket, exportId: string, name: string, range?: { offset: number; length: number }): Promise<ReadableStream> {
  const object = await bucket.get(exportKey(exportId, name), range ? { range } : undefined);
  if (!object) throw notUploaded(exportId);
  return object.body;
}
