/**
 * The regions with open reports, as this isolate last read them: `open_reports` on by-id answers
 * comes from here, after the response cache, so a by-id call reads nothing from D1 for it. The set
 * is read again at most once a minute (OPEN_TTL_MS) and then in the background (the call that finds
 * it old is answered from the old set), so a count is at most about a minute old; a report filed or
 * decided through this isolate shows at once. Only open reports are read (reports_status_region_idx):
 * a few rows, none when nothing is disputed.
 */
import { primaryDb } from "../db/client";
import { errorText, log } from "../lib/log";
import { openCounts } from "./queries";

export const OPEN_TTL_MS = 60_000;

let known: { counts: Map<string, number>; at: number } | undefined;
let reading: Promise<void> | undefined;

async function read(env: Env): Promise<void> {
  const rows = await openCounts(primaryDb(env));
  known = { counts: new Map(rows.map((r) => [r.regionId, r.n])), at: Date.now() };
}

/** Reads the set once at a time; a failure keeps the old set (a count is a hint, never worth failing an answer for). */
function refresh(env: Env): Promise<void> {
  reading ??= read(env)
    .catch((e: unknown) => log.warn("open_reports_read_failed", { error: errorText(e) }))
    .finally(() => {
      reading = undefined;
    });
  return reading;
}

/** Open reports of a region (0: none). The first call of an isolate waits for the read; later ones never do. */
export async function openReportsOf(env: Env, regionId: string, waitUntil: (p: Promise<unknown>) => void): Promise<number> {
  if (!known) await refresh(env);
  else if (Date.now() - known.at >= OPEN_TTL_MS) waitUntil(refresh(env));
  return known?.counts.get(regionId) ?? 0;
}

/** A report filed (+1) or decided (-1) through this isolate: shown at once here; other isolates see it within a minute. */
export function noteOpenReport(regionId: string, delta: 1 | -1): void {
  if (!known) return;
  const n = (known.counts.get(regionId) ?? 0) + delta;
  if (n > 0) known.counts.set(regionId, n);
  else known.counts.delete(regionId);
}

/** Tests: forget the set, so the next call reads it again. */
export function forgetOpenReports(): void {
  known = undefined;
}

/**
 * A by-id answer (`{"data":{...}}`, as cached) with `open_reports` in its `data` when the region has
 * open reports; unchanged (the same text) when it has none. No parse: the count is spliced before the
 * closing braces.
 */
export async function withOpenReports(json: string, regionId: string | null, env: Env, waitUntil: (p: Promise<unknown>) => void): Promise<string> {
  if (!regionId || !json.endsWith("}}")) return json;
  const n = await openReportsOf(env, regionId, waitUntil);
  return n > 0 ? `${json.slice(0, -2)},"open_reports":${n}}}` : json;
}
