/**
 * The Worker's upload size against the platform's limit (issue 33): gzips every module that
 * `wrangler deploy --dry-run --outdir DIR` wrote (source maps and wrangler's README are not uploaded:
 * wrangler.toml does not set upload_source_maps) and fails above 80% of the paid plan's 10 MiB, so a
 * growing bundle is caught with room left rather than at the deploy that is refused.
 *   node scripts/bundle-size.ts DIR      (.ci/run calls it after the dry run)
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { isMain } from "./lib.ts";

const MiB = 1024 * 1024;
/** Cloudflare's limits on a Worker's compressed size: free plan, paid plan. */
export const FREE_LIMIT = 3 * MiB;
export const PAID_LIMIT = 10 * MiB;
/** CI fails above this share of the paid limit. */
export const BUDGET = 0.8;

/** The files of `dir` (recursively) that wrangler uploads: everything but source maps and its README. */
function uploadedFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...uploadedFiles(path));
    else if (!name.endsWith(".map") && name !== "README.md") files.push(path);
  }
  return files;
}

export interface BundleSize {
  files: number;
  raw: number;
  gzip: number;
  ok: boolean;
  report: string;
}

const mib = (bytes: number) => `${(bytes / MiB).toFixed(2)} MiB`;
const pct = (bytes: number, limit: number) => `${((100 * bytes) / limit).toFixed(1)}%`;

/** Measures `dir` (a dry run's --outdir); `ok` is false above BUDGET of the paid limit or with no module. */
export function measureBundle(dir: string): BundleSize {
  const files = uploadedFiles(dir);
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = readFileSync(file);
    raw += bytes.length;
    // Each module is compressed on its own, as the upload's gzip figure is (level 6, zlib's default).
    gzip += gzipSync(bytes).length;
  }
  const budget = BUDGET * PAID_LIMIT;
  const ok = files.length > 0 && gzip <= budget;
  const report = [
    `bundle: ${files.length} module(s), ${mib(raw)} raw, ${mib(gzip)} gzipped (${gzip} bytes)`,
    `bundle: free plan limit ${mib(FREE_LIMIT)}: ${pct(gzip, FREE_LIMIT)}; paid plan limit ${mib(PAID_LIMIT)}: ${pct(gzip, PAID_LIMIT)}`,
    files.length === 0
      ? `bundle: FAILED: no module in ${dir}`
      : ok
        ? `bundle: ok (CI fails above ${BUDGET * 100}% of the paid limit, ${mib(budget)})`
        : `bundle: FAILED: over ${BUDGET * 100}% of the paid limit (${mib(budget)})`,
  ].join("\n");
  return { files: files.length, raw, gzip, ok, report };
}

if (isMain(import.meta.url)) {
  const dir = process.argv[2];
  if (!dir) {
    console.error("usage: node scripts/bundle-size.ts <dir of wrangler deploy --dry-run --outdir>");
    process.exit(2);
  }
  const size = measureBundle(dir);
  console.log(size.report);
  process.exit(size.ok ? 0 : 1);
}
