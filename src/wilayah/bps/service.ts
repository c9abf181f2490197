/**
 * BPS codes (the statistics bureau's region codes) to today's Kemendagri regions, and back. A BPS
 * region lies in the region it leads to; it is not always equal to it (docs/api.md, "BPS codes").
 * Knows nothing of HTTP.
 */
import type { RegionDb } from "../../db/client";
import type { RegionReads } from "../../db/reads";
import { ApiError } from "../../lib/errors";
import { LEVELS, type Level } from "../codes";
import { type BpsRow, bpsPeriods, bpsRow, bpsRows } from "./queries";

/** BPS code length per level: kabupaten/kota 4 digits, kecamatan 7, kelurahan/desa 10 (BPS has provinsi codes too, the crosswalk does not). */
const LEVEL_OF_DIGITS: Record<number, Level> = { 4: "kabupaten", 7: "kecamatan", 10: "kelurahan" };

/**
 * A BPS code as digits, written with or without separators (`3273190001`, `32.73.190.001`,
 * `32 73 190 001`, `32-73-190`), or null when it is no 4-, 7- or 10-digit code.
 */
export function bpsDigits(input: string): string | null {
  const s = input.trim();
  if (!/^\d[\d.\s-]*$/.test(s)) return null;
  const digits = s.replace(/[.\s-]/g, "");
  return LEVEL_OF_DIGITS[digits.length] ? digits : null;
}

/** `2025_2` -> "2025 semester 2". */
export const periodWords = (p: string) => p.replace(/^(\d{4})_(\d)$/, "$1 semester $2");

/** How today's region was reached (the crosswalk's `match`). */
export const MATCHES = ["same_code_same_name", "same_code_name_differs", "renamed_or_moved", "none"] as const;
export type BpsMatch = (typeof MATCHES)[number];

export type BpsAnswer = {
  bps_code: string;
  level: Level;
  bps_name: string | null;
  period: string;
  match: BpsMatch;
  kemendagri_codes: string[];
  kemendagri_name: string | null;
  current: { id: string; name: string; level: Level } | null;
};

export function toAnswer(row: BpsRow): BpsAnswer {
  const level = LEVELS[row.level - 1];
  return {
    bps_code: row.code,
    level,
    bps_name: row.name,
    period: row.period,
    match: row.match as BpsMatch, // the seed build admits only MATCHES (scripts/seed/bps.ts)
    kemendagri_codes: row.kemendagri_codes ? row.kemendagri_codes.split("|") : [],
    kemendagri_name: row.kemendagri_name,
    current: row.current_id ? { id: row.current_id, name: row.current_name ?? "", level } : null,
  };
}

/** One BPS code of any level to today's region, in one batch (the answer's data version riding in it). Unknown: NOT_FOUND naming the periods held. */
export async function bpsCode(reads: RegionReads, raw: string): Promise<{ data: BpsAnswer }> {
  const code = bpsDigits(raw);
  const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
  if (!code) {
    throw new ApiError(
      "INVALID_QUERY",
      `"${shown}" is no BPS code: BPS region codes have 4 digits (kabupaten/kota, 3273), 7 (kecamatan, 3273190) or 10 (kelurahan/desa, 3273190001); dots, spaces and dashes are ignored.`,
      { details: [{ path: "code", message: "must be 4, 7 or 10 digits" }] },
    );
  }
  const row = await bpsRow(reads, code);
  if (!row) {
    const periods = await bpsPeriods(reads.db);
    throw new ApiError(
      "NOT_FOUND",
      `No ${LEVEL_OF_DIGITS[code.length]} with BPS code ${code} in the periods held (${periods.map(periodWords).join(", ") || "none loaded"}; each BPS code as the newest of them that has it).`,
    );
  }
  return { data: toAnswer(row) };
}

/** Many BPS codes at once (POST /wilayah/convert with from "bps"), in order; each is one call. */
export async function convertBps(db: RegionDb, codes: string[]) {
  const digits = codes.map(bpsDigits);
  const rows = await bpsRows(
    db,
    digits.map((d) => d ?? ""),
  );
  return {
    data: codes.map((code, i) => {
      const row = rows[i];
      if (!row) return { code, id: digits[i], status: "unknown" as const, current: null, successors: [] };
      const answer = toAnswer(row);
      return {
        code,
        id: row.code,
        status: answer.current ? ("current" as const) : ("unmapped" as const),
        current: answer.current,
        successors: [],
        bps: { period: answer.period, match: answer.match, kemendagri_codes: answer.kemendagri_codes },
      };
    }),
  };
}

/** The current region each BPS code leads to (codes we do not hold, or hold unmapped, are absent): one statement. */
export async function bpsTargets(db: RegionDb, codes: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (codes.length === 0) return out;
  const rows = await bpsRows(db, codes);
  rows.forEach((r, i) => {
    if (r?.current_id) out.set(codes[i], r.current_id);
  });
  return out;
}
