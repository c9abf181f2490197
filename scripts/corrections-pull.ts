/**
 * The accepted reports (docs/api.md, "Reporting a wrong fact") of the local D1 (`npm run dev`'s
 * state: WRANGLER_PERSIST_TO, or --persist-to DIR) or, with --remote, production, as corrections
 * for seed/corrections.csv. Without --write it only prints those the file does not hold yet:
 * seed/corrections.csv is tracked by git, and a file changed by trying the walk-through would make
 * the next `npm test` fail (the committed seed no longer equals the build). With --write the file
 * keeps the corrections it held and gains the new ones (a decision is final: a report pulled again
 * is the same row); commit it with the seed that `npm run seed:build` then makes, or undo it with
 * `git checkout -- seed/corrections.csv`.
 *
 *   npm run corrections:pull                        # local D1: what would be added
 *   npm run corrections:pull -- --write             # ... written into seed/corrections.csv
 *   npm run corrections:pull -- --remote --write    # production D1
 *   npm run corrections:pull -- --seed DIR --write  # into the seed in DIR (a copy) instead of seed/
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

/** Pulls and merges from the seed directory `dir`, and writes its file when `write`; returns the merged corrections and the new ones. */
export function pullCorrections(target: Target, write: boolean, dir: string): { total: number; added: Correction[] } {
  const existing = readCorrections(dir);
  const pulled = pulledCorrections(d1(ACCEPTED_REPORTS_SQL, target));
  const known = new Set(existing.map((c) => c.reportId));
  const merged = mergeCorrections(existing, pulled);
  if (write) writeFileSync(join(dir, CORRECTIONS_FILE), correctionsCsv(merged));
  return { total: merged.length, added: pulled.filter((c) => !known.has(c.reportId)) };
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--persist-to");
  const target: Target = { remote: args.includes("--remote"), persistTo: at >= 0 ? args[at + 1] : undefined };
  const write = args.includes("--write");
  try {
    const { total, added } = pullCorrections(target, write, seedDirArg(args));
    const from = target.remote ? "remote" : "local";
    for (const c of added) console.log(`  ${c.reportId}: ${c.regionCode} ${c.field} = ${JSON.stringify(c.value)} (accepted ${c.acceptedAt})`);
    if (write) {
      console.log(
        `seed/${CORRECTIONS_FILE}: ${total} corrections, ${added.length} new from the ${from} database. This changed a file git tracks: next npm run seed:build, then commit both; or undo it with git checkout -- seed/${CORRECTIONS_FILE}`,
      );
    } else {
      console.log(
        `${added.length} accepted reports of the ${from} database are not in seed/${CORRECTIONS_FILE} yet. Nothing was written: add --write to write them into it (a file git tracks).`,
      );
    }
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
