/**
 * Corrections from accepted reports (docs/api.md, "Reporting a wrong fact"): seed/corrections.csv,
 * written by `npm run corrections:pull` (scripts/corrections-pull.ts) and applied by the seed build
 * over the sources. Each row: the report, the region (dotted code), the field, the value, the basis
 * the reviewer gave and when it was accepted.
 *
 * Applied mechanically: `name` (the name, the kabupaten/kota short name and the province's alt name
 * when it was the name; the name before stays searchable as a former name), `postal_code` (a
 * kelurahan/desa) and `coordinates` (`lat,lng`). Not applied, listed by the build for a person:
 * `parent` (a region in another parent has another code: a recode, which an edition decides),
 * `boundary` (a geometry, not a value), `population` (counts by sex and a reference date, not one
 * number), `missing_child` (its code is Kemendagri's to assign) and `other`.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCsvRows } from "../../src/lib/csv.ts";
import { nameProblem } from "../../src/lib/text.ts";
import { LEVELS } from "../../src/wilayah/codes.ts";
import { lit, type Row } from "./region-sql.ts";

export const CORRECTIONS_FILE = "corrections.csv";
export const CORRECTIONS_HEADER = ["report_id", "region_code", "field", "value", "basis", "accepted_at"] as const;
/** The fields the build applies (docs/api.md, "Reporting a wrong fact", says the same). */
export const APPLIED = new Set(["name", "postal_code", "coordinates"]);

export type Correction = { reportId: string; regionCode: string; field: string; value: string; basis: string; acceptedAt: string };
/** A correction as applied: what the sources said before it, and the region's level. */
export type AppliedCorrection = Correction & { level: number; valueBefore: string | null };

const field = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** The file's text: the header, then one line per correction (CRLF, RFC 4180 quoting), in the order given. */
export function correctionsCsv(rows: Correction[]): string {
  const lines = [CORRECTIONS_HEADER.join(","), ...rows.map((r) => [r.reportId, r.regionCode, r.field, r.value, r.basis, r.acceptedAt].map(field).join(","))];
  return `${lines.join("\r\n")}\r\n`;
}

/** Reads the file's text; a wrong header or a short row is an error naming its line. */
export function parseCorrections(text: string): Correction[] {
  const rows = parseCsvRows(text, { crlf: false }).filter((r) => r.some((v) => v !== ""));
  const [header, ...data] = rows;
  if (!header || header.join(",") !== CORRECTIONS_HEADER.join(","))
    throw new Error(`${CORRECTIONS_FILE}: the header must be exactly ${CORRECTIONS_HEADER.join(",")}`);
  return data.map((r, i) => {
    if (r.length !== CORRECTIONS_HEADER.length) throw new Error(`${CORRECTIONS_FILE} line ${i + 2}: ${r.length} fields, expected ${CORRECTIONS_HEADER.length}`);
    const [reportId, regionCode, f, value, basis, acceptedAt] = r;
    if (!/^rpt_[\w-]+$/.test(reportId)) throw new Error(`${CORRECTIONS_FILE} line ${i + 2}: report_id "${reportId}" is no report id`);
    if (!basis.trim()) throw new Error(`${CORRECTIONS_FILE} line ${i + 2}: a correction needs its basis`);
    const refused = correctionValueProblem(value);
    if (refused) throw new Error(`${CORRECTIONS_FILE} line ${i + 2}: ${reportId}'s value ${refused}`);
    return { reportId, regionCode, field: f, value, basis, acceptedAt };
  });
}

/**
 * Why a correction's value cannot be applied as it is, or null: it must be in Unicode NFC (what the
 * API stores) and hold no control, format or bidirectional character (src/lib/text.ts nameProblem).
 * Checked where values enter the seed: the pull and the file's reading (so also the build).
 */
export function correctionValueProblem(value: string): string | null {
  if (value !== value.normalize("NFC")) return "is not in Unicode NFC (the same letters written another way): type it again";
  return nameProblem(value);
}

/** seed/corrections.csv of a seed directory; none when the file is absent. */
export function readCorrections(dir: string): Correction[] {
  try {
    return parseCorrections(readFileSync(join(dir, CORRECTIONS_FILE), "utf8"));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
}

/**
 * The file after a pull: the corrections it held, and the accepted reports pulled, one row per
 * report (a decision is final, so a report pulled again is the same row); ordered by acceptance,
 * then report id, so the same reports always give the same file.
 */
export function mergeCorrections(existing: Correction[], pulled: Correction[]): Correction[] {
  const byId = new Map(existing.map((c) => [c.reportId, c]));
  for (const c of pulled) byId.set(c.reportId, c);
  return [...byId.values()].sort((a, b) => (a.acceptedAt < b.acceptedAt ? -1 : a.acceptedAt > b.acceptedAt ? 1 : a.reportId < b.reportId ? -1 : 1));
}

const KABUPATEN_PREFIX = /^(Kabupaten Administrasi|Kota Administrasi|Kabupaten|Kota) /;

/**
 * Applies the corrections of the fields it can over the seed's rows (in file order: a later
 * correction of the same field wins). A correction of an unknown region, of a postal code outside a
 * kelurahan/desa, or with a value the field cannot take stops the build (the reviewer checked it
 * when accepting: a failure here means the file was edited by hand). The others, and a correction
 * to the value the data already holds, are returned as `skipped`, with why.
 */
export function applyCorrections(rows: Row[], corrections: Correction[]): { applied: AppliedCorrection[]; skipped: (Correction & { why: string })[] } {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const applied: AppliedCorrection[] = [];
  const skipped: (Correction & { why: string })[] = [];
  // Two accepted reports of the same fix (a duplicate not marked as one): the second changes nothing and is no correction to list.
  const unchanged = "the data already holds this value (the sources, or an earlier correction)";
  for (const c of corrections) {
    const where = `${CORRECTIONS_FILE}: ${c.reportId}`;
    if (!APPLIED.has(c.field)) {
      skipped.push({ ...c, why: `${c.field} is not applied by the build: it needs an edition or a hand edit of the sources` });
      continue;
    }
    const r = byId.get(c.regionCode);
    if (!r) throw new Error(`${where}: no region ${c.regionCode} in the seed`);
    const level = LEVELS.indexOf(r.level) + 1;
    let valueBefore: string | null;
    if (c.field === "name") {
      const refused = correctionValueProblem(c.value);
      if (refused) throw new Error(`${where}: the name ${refused}`);
      const name = c.value.trim();
      if (!name || name.length > 100) throw new Error(`${where}: a name of 1 to 100 characters`);
      valueBefore = r.name;
      if (name === r.name) {
        skipped.push({ ...c, why: unchanged });
        continue;
      }
      if (r.level === "kabupaten") r.altName = name.replace(KABUPATEN_PREFIX, "");
      else if (r.altName === r.name) r.altName = name;
      // the name before stays searchable: whoever types it (from an old list, or the wrong spelling) still finds the region, marked former
      if (!r.former.includes(r.name)) r.former.push(r.name);
      r.name = name;
    } else if (c.field === "postal_code") {
      if (r.level !== "kelurahan") throw new Error(`${where}: postal codes belong to kelurahan/desa, ${c.regionCode} is a ${r.level}`);
      if (!/^[1-9]\d{4}$/.test(c.value)) throw new Error(`${where}: "${c.value}" is no 5-digit postal code`);
      valueBefore = r.postalCode;
      if (c.value === valueBefore) {
        skipped.push({ ...c, why: unchanged });
        continue;
      }
      r.postalCode = c.value;
    } else {
      const m = /^(-?\d{1,2}(?:\.\d+)?),(-?\d{1,3}(?:\.\d+)?)$/.exec(c.value.replace(/\s+/g, ""));
      const lat = m ? Number(m[1]) : Number.NaN;
      const lng = m ? Number(m[2]) : Number.NaN;
      if (!m || lat < -11.5 || lat > 6.5 || lng < 94.5 || lng > 141.5) throw new Error(`${where}: "${c.value}" is no lat,lng inside Indonesia`);
      valueBefore = r.lat === null || r.lng === null ? null : `${r.lat},${r.lng}`;
      if (r.lat === lat && r.lng === lng) {
        skipped.push({ ...c, why: unchanged });
        continue;
      }
      r.lat = lat;
      r.lng = lng;
    }
    applied.push({ ...c, level, valueBefore });
  }
  return { applied, skipped };
}

/** The `wilayah_corrections` rows (emptied first: a seed without corrections leaves none). */
export function correctionsSql(applied: AppliedCorrection[]): string {
  let out = "-- Corrections from accepted reports: seed/corrections.csv (scripts/seed/corrections.ts). Do not edit.\nDELETE FROM wilayah_corrections;\n";
  for (const c of applied) {
    const values = [c.reportId, c.regionCode, c.level, c.field, c.valueBefore, c.value, c.basis, c.acceptedAt];
    out += `INSERT OR REPLACE INTO wilayah_corrections (report_id, region_id, level, field, value_before, value, basis, accepted_at) VALUES (${values.map(lit).join(", ")});\n`;
  }
  return out;
}
