/**
 * Bulk exports (GET /api/v1/wilayah/export): every level as CSV, JSON and GeoJSON (with boundaries),
 * the code mapping of every earlier edition as CSV, JSON and SQL (GET /api/v1/wilayah/changes/mapping,
 * ./mapping.ts), plus LICENSE and manifest.json (data version, size and sha256 of each file), built from the seed
 * build's records and the boundary sources, then uploaded to the R2 bucket `EXPORTS` under the
 * export's id (src/wilayah/export/files.ts). Never committed: the village GeoJSON alone is about
 * 200 MB. Built files are kept in .wrangler/exports/<layout>/<id>/ and reused until the seed or the layout changes.
 *
 *   npm run seed:exports                    # local R2 (npm run dev, the bench, the browser suite do this when needed)
 *   npm run seed:exports -- --remote        # the deployed bucket (npm run deploy does it when needed: docs/deploy.md)
 *   npm run seed:exports -- --out DIR       # only build, into DIR
 *
 * WRANGLER_PERSIST_TO=DIR uploads to that local state instead of .wrangler/state (as scripts/dev.ts).
 * The records and their shape in each format are in ./export-records.ts.
 */
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { LEVELS, type Level } from "../../src/wilayah/codes.ts";
import {
  csvColumns,
  dataFile,
  EXPORT_FORMAT_NAMES,
  EXPORT_FORMATS,
  type ExportFileEntry,
  type ExportFormat,
  type ExportManifest,
  exportId,
  exportKey,
  LAYOUT,
  LICENSE_FILE,
  MANIFEST_FILE,
  MAPPING_FORMAT_NAMES,
  MAPPING_FORMATS,
  type MappingFileEntry,
  manifestObjects,
  mappingFile,
} from "../../src/wilayah/export/files.ts";
import type { Ring } from "../../src/wilayah/geo/geometry.ts";
import { isMain, root, seedDirArg, wrangler } from "../lib.ts";
import { readBoundaries } from "./boundary-sql.ts";
import { buildSeed, type SeedResult } from "./build.ts";
import { csvField, exportRecords, fgbFeatures, fgbLayer, flatCell, geometryOf } from "./export-records.ts";
import { writeFlatGeobuf } from "./fgb.ts";
import { currentEdition, mappingEditions, mappingRows, renderMapping } from "./mapping.ts";

type SeedManifest = { dataVersion: string; checksum: string; boundaries: { kelurahan: { checksum: string } } };
const seedManifest = (seedDir: string): SeedManifest => JSON.parse(readFileSync(join(seedDir, "manifest.json"), "utf8"));

/** Writes a file in pieces, hashing as it goes (the village GeoJSON is never one string). */
class Output {
  private readonly fd: number;
  private readonly hash = createHash("sha256");
  size = 0;
  constructor(path: string) {
    this.fd = openSync(path, "w");
  }
  write(text: string) {
    const bytes = Buffer.from(text, "utf8");
    writeSync(this.fd, bytes);
    this.hash.update(bytes);
    this.size += bytes.length;
  }
  close(): { size: number; sha256: string } {
    closeSync(this.fd);
    return { size: this.size, sha256: this.hash.digest("hex") };
  }
}

const LICENSE_LINE =
  "ODbL-1.0 (a derivative database of idn-area-data by Fityan Nugroho); coordinates, boundaries and postal codes from cahya dsn's repositories, MIT";

function licenseText(id: string, dataVersion: string): string {
  return `Wilayah API bulk export ${id}
Data version: ${dataVersion}

This export is a derivative database of idn-area-data (https://github.com/fityannugroho/idn-area-data,
npm package idn-area-data 4.0.1, and 3.1.2 for retired codes) by Fityan Nugroho, which is licensed
under the Open Database License (ODbL) v1.0. The export is made available under the same licence:

  Open Database License (ODbL) v1.0
  https://opendatacommons.org/licenses/odbl/1-0/

You may use, share and adapt it. If you publicly use it or a database derived from it, attribute
idn-area-data (and Wilayah API) and keep any adapted database open under the ODbL. The full terms are
at the address above.

Parts of the records come from cahya dsn's repositories, under the MIT licence below:
- lat, lng (centroids) and the GeoJSON boundaries: https://github.com/cahyadsn/wilayah_boundaries
- postal_code (kode pos): https://github.com/cahyadsn/wilayah_kodepos
- the code mapping files (mapping-<edition>.csv, .json, .sql): the editions of the code list since
  2015, https://github.com/cahyadsn/wilayah (MIT, copyright (c) 2017-2025 Cahya DSN)

bps_code: the region codes of BPS (Badan Pusat Statistik), from BPS's bridging service
(sig.bps.go.id/bridging-kode) as published by https://github.com/gapra0393/indonesia-administrative-area,
https://github.com/taufiqart/wilayah-indonesia and https://github.com/englandrc/IndonesiaCrosswalk
(no licence stated; facts published by BPS). A BPS region lies in the region it is listed with; it
is not always equal to it.

MIT License

Copyright (c) 2024-2025 cahya dsn

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction,
including without limitation the rights to use, copy, modify, merge, publish, distribute,
sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM,
DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT
OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.

Weather and earthquake data (BMKG) is not part of this export.
`;
}

export type BuildOptions = {
  /** Only these levels (tests); default all four. */
  levels?: readonly Level[];
  /** Only these formats (tests); default all three. */
  formats?: readonly ExportFormat[];
  /** Only regions this keeps, per level (tests). A filtered export is marked partial in its manifest's license line. */
  filter?: (level: Level, id: string) => boolean;
  /** Code mapping files of these editions only (tests); default every edition of the region history but the current one. */
  mappingEditions?: readonly string[];
  /** Only the codes this keeps in the mapping files (tests); marks the export partial as `filter` does. */
  mappingFilter?: (oldCode: string) => boolean;
};

/**
 * Builds an export into `dir`: the data files, LICENSE, then manifest.json (written last, so a
 * folder with a manifest is complete). Deterministic: the same seed gives the same bytes.
 */
export async function buildExports(seedDir: string, dir: string, opts: BuildOptions = {}): Promise<ExportManifest> {
  const seed = seedManifest(seedDir);
  const id = exportId(seed);
  const levels = opts.levels ?? LEVELS;
  const formats = opts.formats ?? EXPORT_FORMAT_NAMES;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const built = await buildSeed(seedDir);
  const all = exportRecords(built.rows, built.bps);
  const files: ExportFileEntry[] = [];
  for (const level of levels) {
    let shapesOfLevel: Map<string, Ring[]> | undefined;
    const shapes = () => (shapesOfLevel ??= new Map(readBoundaries(seedDir, level).map((b) => [b.id, b.rings])));
    const records = opts.filter ? all[level].filter((r) => opts.filter?.(level, r.id as string)) : all[level];
    const meta = { level, total: records.length, export_id: id, data_version: seed.dataVersion, license: LICENSE_LINE };
    for (const format of formats) {
      const name = dataFile(level, format);
      if (format === "fgb") {
        const written = writeFlatGeobuf(join(dir, name), fgbLayer(level, meta), fgbFeatures(level, records, shapes()));
        files.push({ name, level, format, media_type: EXPORT_FORMATS[format].mediaType, records: written.records, size: written.size, sha256: written.sha256 });
        continue;
      }
      const out = new Output(join(dir, name));
      if (format === "csv") {
        const header = csvColumns(level);
        out.write(`${header.join(",")}\r\n`);
        for (const r of records) out.write(`${header.map((c) => csvField(flatCell(r, c))).join(",")}\r\n`);
      } else if (format === "json") {
        // One record a line: meta first, so a reader knows what follows before the (large) data.
        out.write(`{"meta":${JSON.stringify(meta)},"data":[\n`);
        for (const [i, r] of records.entries()) out.write(`${i ? ",\n" : ""}${JSON.stringify(r)}`);
        out.write("\n]}\n");
      } else {
        // RFC 7946 FeatureCollection; data_version and license are foreign members (section 6.1).
        out.write(
          `{"type":"FeatureCollection","export_id":${JSON.stringify(id)},"data_version":${JSON.stringify(seed.dataVersion)},"license":${JSON.stringify(LICENSE_LINE)},"features":[\n`,
        );
        for (const [i, r] of records.entries()) {
          const rings = shapes().get(r.id as string);
          // A region without a known boundary keeps its record, with a null geometry (RFC 7946 3.2).
          const shape = rings ? geometryOf(rings) : null;
          const feature = {
            type: "Feature",
            id: r.id,
            ...(shape ? { bbox: shape.bbox } : {}),
            properties: { ...r, level },
            geometry: shape ? shape.geometry : null,
          };
          out.write(`${i ? ",\n" : ""}${JSON.stringify(feature)}`);
        }
        out.write("\n]}\n");
      }
      files.push({ name, level, format, media_type: EXPORT_FORMATS[format].mediaType, records: records.length, ...out.close() });
    }
  }
  const mappingLicense = `${LICENSE_LINE}; the earlier editions' codes and names from cahya dsn's wilayah repository, MIT`;
  const mappings = writeMappings(dir, built, { export_id: id, data_version: seed.dataVersion, license: mappingLicense }, opts);
  const license = Buffer.from(licenseText(id, seed.dataVersion), "utf8");
  writeFileSync(join(dir, LICENSE_FILE), license);
  files.push({
    name: LICENSE_FILE,
    level: null,
    format: null,
    media_type: "text/plain; charset=utf-8",
    records: null,
    size: license.length,
    sha256: createHash("sha256").update(license).digest("hex"),
  });
  const manifest: ExportManifest = {
    export_id: id,
    data_version: seed.dataVersion,
    license: opts.filter || opts.mappingFilter ? `${LICENSE_LINE} (partial build)` : LICENSE_LINE,
    files,
    mappings,
  };
  writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/**
 * The code mapping files: for each earlier edition of the region history (the seed's
 * wilayah_edition rows, so a new edition gets its files when the export is rebuilt), its codes and
 * their current codes as CSV, JSON and SQL (./mapping.ts).
 */
function writeMappings(
  dir: string,
  built: Pick<SeedResult, "rows" | "historyTables">,
  meta: { export_id: string; data_version: string; license: string },
  opts: BuildOptions,
): MappingFileEntry[] {
  const currentNames = new Map(built.rows.filter((r) => r.isActive === 1).map((r) => [r.id, r.name]));
  const to = currentEdition(built.historyTables);
  const out: MappingFileEntry[] = [];
  for (const from of opts.mappingEditions ?? mappingEditions(built.historyTables)) {
    const rows = mappingRows(built.historyTables, currentNames, from).filter((r) => !opts.mappingFilter || opts.mappingFilter(r.old_code));
    for (const format of MAPPING_FORMAT_NAMES) {
      const name = mappingFile(from, format);
      const bytes = Buffer.from(renderMapping(rows, format, { ...meta, from, to }), "utf8");
      writeFileSync(join(dir, name), bytes);
      out.push({
        name,
        from,
        to,
        format,
        media_type: MAPPING_FORMATS[format].mediaType,
        records: rows.length,
        size: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      });
    }
  }
  return out;
}

/** The export id of the seed in `seedDir` (its checksums): a new seed is a new export. */
export const seedExportId = (seedDir: string) => exportId(seedManifest(seedDir));

/** The folder of the full export of the seed in `seedDir`, and its manifest when it is built and intact there. */
function builtExport(seedDir: string): { dir: string; manifest: ExportManifest | null } {
  const id = seedExportId(seedDir);
  const dir = join(root, ".wrangler", "exports", LAYOUT, id);
  const manifestPath = join(dir, MANIFEST_FILE);
  if (!existsSync(manifestPath)) return { dir, manifest: null };
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as ExportManifest;
  // An export built before the mapping files existed has no `mappings`: it is built again.
  const intact = manifestObjects(manifest).every((f) => existsSync(join(dir, f.name)) && statSync(join(dir, f.name)).size === f.size);
  return { dir, manifest: manifest.mappings && intact ? manifest : null };
}

/** The full export of the seed in `seedDir`, built once into .wrangler/exports/<layout>/<id>/ and reused while its files are intact. */
export async function currentExport(seedDir: string, opts: { background?: boolean } = {}): Promise<{ dir: string; manifest: ExportManifest }> {
  const built = builtExport(seedDir);
  if (built.manifest) return { dir: built.dir, manifest: built.manifest };
  const { dir } = built;
  const id = seedExportId(seedDir);
  console.log(
    opts.background
      ? `Background: building the bulk exports (${id}; a few minutes on a first start). Until they are uploaded, GET /api/v1/wilayah/export answers 404; every other call answers now.`
      : `Building the bulk exports (${id}: 4 levels as CSV, JSON and GeoJSON with boundaries, the code mapping files; a few minutes)...`,
  );
  const t0 = Date.now();
  const manifest = await buildExports(seedDir, dir);
  const total = manifestObjects(manifest).reduce((n, f) => n + f.size, 0);
  console.log(
    `${opts.background ? "Background: b" : "B"}ulk exports built in ${((Date.now() - t0) / 1000).toFixed(1)} s (${(total / 1e6).toFixed(0)} MB in ${dir.slice(root.length + 1)}).`,
  );
  return { dir, manifest };
}

/** The bucket bound as EXPORTS in wrangler.toml. */
export function bucketName(): string {
  const toml = readFileSync(join(root, "wrangler.toml"), "utf8");
  const m = /\[\[r2_buckets\]\]\s*\nbinding\s*=\s*"EXPORTS"\s*\nbucket_name\s*=\s*"([^"]+)"/.exec(toml);
  if (!m) throw new Error('wrangler.toml has no [[r2_buckets]] binding "EXPORTS" with a bucket_name');
  return m[1];
}

/**
 * Uploads an export to the local R2 of a state (wrangler dev's `--persist-to` folder, or
 * .wrangler/state), unless the bucket already holds this manifest; the manifest goes last, so an
 * upload cut short is redone next time.
 */
export async function uploadLocal(dir: string, manifest: ExportManifest, persistTo?: string): Promise<boolean> {
  const { getPlatformProxy } = await import("wrangler");
  const statePath = join(persistTo ?? join(root, ".wrangler", "state"), "v3");
  // A configuration with the bucket alone (local R2 is stored by bucket name, so wrangler dev sees
  // the same objects): the Worker's own would also start its Durable Object bindings, without the class.
  const config = join(root, ".wrangler", "tmp", "exports-upload.json");
  mkdirSync(join(root, ".wrangler", "tmp"), { recursive: true });
  writeFileSync(
    config,
    JSON.stringify({ name: "wilayah-exports-upload", compatibility_date: "2026-08-01", r2_buckets: [{ binding: "EXPORTS", bucket_name: bucketName() }] }),
  );
  const proxy = await getPlatformProxy<{ EXPORTS: R2Bucket }>({ configPath: config, persist: { path: statePath }, remoteBindings: false });
  try {
    const bucket = proxy.env.EXPORTS;
    const manifestText = readFileSync(join(dir, MANIFEST_FILE), "utf8");
    const held = await bucket.get(exportKey(manifest.export_id, MANIFEST_FILE));
    if (held && (await held.text()) === manifestText) return false;
    for (const f of manifestObjects(manifest)) {
      await bucket.put(exportKey(manifest.export_id, f.name), readFileSync(join(dir, f.name)), { httpMetadata: { contentType: f.media_type } });
    }
    await bucket.put(exportKey(manifest.export_id, MANIFEST_FILE), manifestText, { httpMetadata: { contentType: "application/json" } });
    return true;
  } finally {
    await proxy.dispose();
  }
}

/** Uploads an export to the deployed bucket with `wrangler r2 object put --remote`, manifest last (so a bucket holding the manifest holds the export). */
export function uploadRemote(dir: string, manifest: ExportManifest): void {
  const bucket = bucketName();
  for (const f of [...manifestObjects(manifest), { name: MANIFEST_FILE, media_type: "application/json" }]) {
    console.log(`Uploading ${f.name} to ${bucket}/${exportKey(manifest.export_id, f.name)}`);
    wrangler(
      ["r2", "object", "put", `${bucket}/${exportKey(manifest.export_id, f.name)}`, "--remote", "--file", join(dir, f.name), "--content-type", f.media_type],
      {
        capture: true,
      },
    );
  }
}

/**
 * For scripts/dev.ts: the export of the seed in `seedDir` in the local R2 of this state (built first
 * when needed). `background`: npm run dev's Worker is already serving (scripts/dev-files.ts); the lines say so.
 */
export async function ensureLocalExports(seedDir: string, persistTo?: string, opts: { background?: boolean } = {}): Promise<void> {
  const { dir, manifest } = await currentExport(seedDir, opts);
  const t0 = Date.now();
  if (await uploadLocal(dir, manifest, persistTo)) {
    console.log(
      `${opts.background ? "Background: b" : "B"}ulk exports uploaded to the local R2 in ${((Date.now() - t0) / 1000).toFixed(1)} s${opts.background ? ": GET /api/v1/wilayah/export serves them now." : "."}`,
    );
  }
}

async function main() {
  const args = process.argv.slice(2);
  const seedDir = seedDirArg(args);
  const at = args.indexOf("--out");
  if (at >= 0) {
    if (!args[at + 1]) throw new Error("--out needs a folder");
    const manifest = await buildExports(seedDir, args[at + 1]);
    console.log(JSON.stringify(manifest, null, 2));
    return;
  }
  if (args.includes("--remote")) {
    const { dir, manifest } = await currentExport(seedDir);
    uploadRemote(dir, manifest);
    console.log(`Bulk export ${manifest.export_id} uploaded to the bucket ${bucketName()}.`);
    return;
  }
  await ensureLocalExports(seedDir, process.env.WRANGLER_PERSIST_TO);
}

if (isMain(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
