/**
 * Writes seed/corrections.csv from the accepted reports (docs/api.md, "Reporting a wrong fact"): the
 * local D1 (`npm run dev`'s state: WRANGLER_PERSIST_TO, or --persist-to DIR) or, with --remote,
 * production. The file keeps the corrections it held and gains the reports accepted since (a
 * decision is final: a report pulled again is the same row). Commit it; the next `npm run
 * seed:build` applies it and `npm run seed:apply` loads it.
 *
 *   npm run corrections:pull                # local D1
 *   npm run corrections:pull -- --remote    # production D1
 *   npm run corrections:pull -- --seed DIR  # into the seed in DIR (a copy) instead of seed/
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { d1, isMain, seedDirArg, type Target } from "./lib.ts";
import { CORRECTIONS_FILE, type Correction, correctionsCsv, correctionValueProblem, mergeCorrections, readCorrections } from "./seed/corrections.ts";

/** Accepted reports (src/reports owns the table), oldest decision first; the value the reviewer accepted. */
const ACCEPTED_REPORTS_SQL =
  "SELECT id, region_id, field, coalesce(accepted_value, value) AS value, basis, reviewed_at FROM reports WHERE status = 'accepted' ORDER BY reviewed_at, id";

/**
 * Accepted reports as D1 answers ACCEPTED_REPORTS_SQL, as corrections (accepted_at in ISO 8601,
 * UTC). A value that is not NFC text free of invisible characters (accepted before the API refused
 * them) stops the pull, naming the report: nothing is written, so it never reaches the seed.
 */
export function pulledCorrections(rows: Record<string, unknown>[]): Correction[] {
  return rows.map((r) => {
    const value = String(r.value);
    const refused = correctionValueProblem(value);
    if (refused)
      throw new Error(
        `report ${String(r.id)}: the accepted value ${JSON.stringify(value)} ${refused}. Correct it in the database (or reject the report) and pull again.`,
      );
    return {
      reportId: String(r.id),
      regionCode: String(r.region_id),
      field: String(r.field),
      value,
      basis: String(r.basis ?? ""),
      acceptedAt: new Date(Number(r.reviewed_at)).toISOString(),
    };
  });
}

/** Pulls, merges and writes into the seed directory `dir`; returns the file's corrections and how many were new. */
export function pullCorrections(target: Target, dir: string): { total: number; added: number } {
  const existing = readCorrections(dir);
  const pulled = pulledCorrections(d1(ACCEPTED_REPORTS_SQL, target));
  const known = new Set(existing.map((c) => c.reportId));
  const merged = mergeCorrections(existing, pulled);
  writeFileSync(join(dir, CORRECTIONS_FILE), correctionsCsv(merged));
  return { total: merged.length, added: pulled.filter((c) => !known.has(c.reportId)).length };
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--persist-to");
  const target: Target = { remote: args.includes("--remote"), persistTo: at >= 0 ? args[at + 1] : undefined };
  try {
    const { total, added } = pullCorrections(target, seedDirArg(args));
    console.log(
      `seed/${CORRECTIONS_FILE}: ${total} corrections, ${added} new from the ${target.remote ? "remote" : "local"} database. Next: npm run seed:build, then commit the seed.`,
    );
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
