/**
 * BPS codes (the statistics bureau's region codes) for the seed: reads
 * seed/sources/wilayah-bps-crosswalk.csv (seed/sources/README.md) and renders the `wilayah_bps`
 * table (src/wilayah/bps). A row whose `current_code` is empty stays unmapped: no current region is
 * guessed for it. A `current_code` that is no current region of the seed stops the build.
 */
import { insertStatements, sqlString } from "../lib.ts";
import { csvFields } from "./search-index.ts";

export const BPS_CROSSWALK = "wilayah-bps-crosswalk.csv";
const HEADER = "level,bps_code,bps_name,bps_period,kemendagri_code,kemendagri_name,current_code,match";

/** BPS code length per level (no provinsi rows in the crosswalk). */
export const BPS_LEVELS = { kabupaten: { digits: 4, n: 2 }, kecamatan: { digits: 7, n: 3 }, kelurahan: { digits: 10, n: 4 } } as const;
export type BpsLevel = keyof typeof BPS_LEVELS;
const PERIODS = ["2025_2", "2020_2", "2017_2"] as const;
const MATCHES = ["same_code_same_name", "same_code_name_differs", "renamed_or_moved", "none"] as const;

export type BpsRow = {
  level: BpsLevel;
  code: string;
  name: string | null;
  period: (typeof PERIODS)[number];
  kemendagriCodes: string[];
  kemendagriName: string | null;
  currentId: string | null;
  match: (typeof MATCHES)[number];
};

/** The crosswalk's rows as the file gives them; throws naming a malformed row. */
export function parseBpsCrosswalk(csv: string): BpsRow[] {
  const lines = csv.split(/\r?\n/).filter((l) => l !== "");
  if (lines[0] !== HEADER) throw new Error(`${BPS_CROSSWALK}: header is not ${HEADER}`);
  const seen = new Set<string>();
  return lines.slice(1).map((line, i) => {
    const f = csvFields(line);
    const bad = (why: string) => new Error(`${BPS_CROSSWALK} line ${i + 2}: ${why}: ${line}`);
    if (f.length !== 8) throw bad("not 8 fields");
    const [level, code, name, period, kemendagri, kemendagriName, current, match] = f;
    if (!(level in BPS_LEVELS)) throw bad("unknown level");
    const lv = level as BpsLevel;
    if (!new RegExp(`^\\d{${BPS_LEVELS[lv].digits}}$`).test(code)) throw bad(`a ${lv} BPS code has ${BPS_LEVELS[lv].digits} digits`);
    if (seen.has(code)) throw bad("BPS code listed twice");
    seen.add(code);
    if (!(PERIODS as readonly string[]).includes(period)) throw bad("unknown period");
    if (!(MATCHES as readonly string[]).includes(match)) throw bad("unknown match");
    if ((current === "") !== (match === "none")) throw bad("current_code is empty exactly when match is none");
    return {
      level: lv,
      code,
      name: name || null,
      period: period as BpsRow["period"],
      kemendagriCodes: kemendagri ? kemendagri.split("|") : [],
      kemendagriName: kemendagriName || null,
      currentId: current || null,
      match: match as BpsRow["match"],
    };
  });
}

const MAX_STATEMENT_BYTES = 60_000;
const lit = (v: string | number | null) => (v === null ? "NULL" : typeof v === "number" ? String(v) : sqlString(v));

/**
 * Where each row leads in this seed. The file's `current_code` is a code of edition 2025; once a
 * later edition (`npm run edition:add`) retires it, the row follows its one successor of the same
 * level (the region history), and with none or several it is left unmapped: never guessed. A code
 * that no edition holds stops the build.
 */
export function resolveBps(
  rows: BpsRow[],
  current: Map<string, { name: string; level: string }>,
  successorsOf: (id: string) => string[],
  known: (id: string) => boolean,
): (BpsRow & { currentName: string | null })[] {
  return rows.map((r) => {
    if (!r.currentId) return { ...r, currentName: null };
    const region = current.get(r.currentId);
    if (region) {
      if (region.level !== r.level) throw new Error(`${BPS_CROSSWALK}: BPS ${r.code} leads to ${r.currentId}, which is no ${r.level}`);
      return { ...r, currentName: region.name };
    }
    if (!known(r.currentId)) throw new Error(`${BPS_CROSSWALK}: BPS ${r.code} leads to ${r.currentId}, which no edition holds`);
    const next = successorsOf(r.currentId).filter((id) => current.get(id)?.level === r.level);
    return next.length === 1 ? { ...r, currentId: next[0], currentName: current.get(next[0])?.name ?? null } : { ...r, currentId: null, currentName: null };
  });
}

/** The `wilayah_bps` rows (emptied first), as resolveBps leads them. */
export function bpsSql(rows: (BpsRow & { currentName: string | null })[]): string {
  const tuples = rows.map((r) => {
    const values = [
      r.code,
      BPS_LEVELS[r.level].n,
      r.name,
      r.period,
      r.kemendagriCodes.join("|") || null,
      r.kemendagriName,
      r.currentId,
      r.currentName,
      r.match,
    ];
    return `(${values.map(lit).join(",")})`;
  });
  return `-- BPS codes: from seed/sources/wilayah-bps-crosswalk.csv (BPS bridging service, via gapra0393, taufiqart, englandrc). Do not edit.\nDELETE FROM wilayah_bps;\n${insertStatements(
    "wilayah_bps",
    "code, level, name, period, kemendagri_codes, kemendagri_name, current_id, current_name, match",
    tuples,
    MAX_STATEMENT_BYTES,
  )}`;
}

/** Per level: BPS codes in the file, mapped to a current region, and the current regions holding at least one. */
export function bpsCoverage(rows: BpsRow[]): Record<BpsLevel, { codes: number; mapped: number; regions: number }> {
  const out = Object.fromEntries(Object.keys(BPS_LEVELS).map((l) => [l, { codes: 0, mapped: 0, regions: 0 }])) as Record<
    BpsLevel,
    { codes: number; mapped: number; regions: number }
  >;
  const regions = new Map<BpsLevel, Set<string>>();
  for (const r of rows) {
    out[r.level].codes++;
    if (!r.currentId) continue;
    out[r.level].mapped++;
    const set = regions.get(r.level) ?? new Set<string>();
    set.add(r.currentId);
    regions.set(r.level, set);
  }
  for (const [l, set] of regions) out[l].regions = set.size;
  return out;
}
