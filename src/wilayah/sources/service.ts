/**
 * Provenance (issue 40; docs/api.md, "Sources"): where each family of a region's fields comes from,
 * the dataset with its version, licence and attribution, the regulation and edition that set its
 * code and name, and the hand corrections applied to it with their basis. Read only for
 * `include=sources` and the sources page: an answer without it reads nothing here. Knows nothing of HTTP.
 */

import type { RegionDb } from "../../db/client";
import type { RegionReads } from "../../db/reads";
import type { Level } from "../codes";
import { correctionsOf } from "../corrections/queries";
import type { CoverageField } from "../coverage/fields";
import { missingFields } from "../coverage/service";
import { loadedDataset } from "../dataset/queries";
import { codeOrigin, type EditionCite } from "../history/service";
import { CITED_SOURCES, type CorrectionKind, FAMILIES, type Family, LEVEL_FAMILIES } from "./families";
import { type NoteRow, noteRows, type SourceRow, sourceRows } from "./queries";

/** A dataset or regulation as an answer cites it. */
export type SourceRef = {
  id: string;
  kind: "dataset" | "regulation";
  name: string;
  url: string | null;
  version: string | null;
  date: string | null;
  licence: string | null;
  licence_url: string | null;
  attribution: string;
  note: string | null;
};

/** A hand correction of a region's data and its basis. `report_id`, `accepted_at`: an accepted report only. */
export type Correction = { kind: CorrectionKind; value: string; basis: string; source_file: string | null; report_id?: string; accepted_at?: string };

export type RegulationCite = EditionCite & { date: string | null };

export type FamilySources = { covers: string[]; sources: SourceRef[]; corrections: Correction[]; note: string | null };
export type CodeNameSources = FamilySources & {
  /** The edition whose list the region tables follow now. */
  list: RegulationCite;
  /** The edition whose list first holds the code, and the change that brought it; null: the editions cannot tell. */
  code_set_in: (RegulationCite & { change: { kind: string; from: string | null; basis: string | null; confidence: number | null } | null }) | null;
  /** The edition of the last change of name (spelling and case aside); null: the editions cannot tell. */
  name_set_in: RegulationCite | null;
  /** The name as the newest edition holding the code publishes it, when it is written otherwise than `name`. */
  name_as_published: string | null;
  /** A retired code: the last edition holding it. */
  until: RegulationCite | null;
};
export type RegionSources = { code_name: CodeNameSources } & Partial<Record<Exclude<Family, "code_name">, FamilySources>>;

/** What a region record tells the provenance without another read. */
export type RegionFacts = {
  id: string;
  level: Level;
  name: string;
  is_active: number;
  bps_codes: { code: string; period: string }[];
};

/** The record fields and endpoints each family answers for. */
const COVERS: Record<Family, (level: Level) => string[]> = {
  code_name: (level) => [
    "id",
    "code",
    "name",
    "alt_name",
    "level",
    ...({ provinsi: [], kabupaten: ["provinsi_id", "type"], kecamatan: ["kabupaten_id"], kelurahan: ["kecamatan_id"] } as const)[level],
  ],
  coordinates: () => ["lat", "lng"],
  postal_code: () => ["postal_code"],
  boundary: () => ["GET /wilayah/{id}/boundary", "GET /wilayah/reverse", "GET /wilayah/{id}/neighbors"],
  population_area: () => ["population", "area_km2", "density_per_km2"],
  islands: () => ["GET /wilayah/pulau"],
  bps_codes: () => ["bps_codes"],
};

// ---------------------------------------------------------------- accepted reports (the seam)

/** An accepted report, as the corrections desk (issue 40 part 2, branch i40-reports) seeds it: one row of its corrections table. */
export type AcceptedReport = { report_id: string; region_code: string; field: string; value: string; basis: string; accepted_at: string };

/** A report's field (POST /wilayah/{id}/reports) -> the family it corrects. */
export const REPORT_FIELD_FAMILY: Record<string, Family> = {
  name: "code_name",
  parent: "code_name",
  missing_child: "code_name",
  other: "code_name",
  postal_code: "postal_code",
  coordinates: "coordinates",
  boundary: "boundary",
  population: "population_area",
};

/** An accepted report as a correction of its family. */
export function reportCorrection(r: AcceptedReport): { family: Family; correction: Correction } {
  return {
    family: REPORT_FIELD_FAMILY[r.field] ?? "code_name",
    correction: {
      kind: "report",
      value: `${r.field}: ${r.value}`,
      basis: r.basis,
      source_file: "seed/corrections.csv",
      report_id: r.report_id,
      accepted_at: r.accepted_at,
    },
  };
}

/**
 * The third kind of hand correction: the accepted reports of one region, as the seed applied them
 * (wilayah_corrections, src/wilayah/corrections, from seed/corrections.csv). `regionSources` cites
 * each under its family with `reportCorrection`. Called only with `include=sources`.
 */
export async function acceptedReports(db: RegionDb, regionId: string): Promise<AcceptedReport[]> {
  return (await correctionsOf(db, regionId)).map((c) => ({
    report_id: c.report_id,
    region_code: c.region_id,
    field: c.field,
    value: c.value,
    basis: c.basis,
    accepted_at: c.accepted_at,
  }));
}

// ---------------------------------------------------------------- the sources

/**
 * The sources table changes only with a seed: kept per isolate for the loaded data's checksum (the
 * `dataKey` of an answer's reads, else one point read), as the editions are (src/wilayah/history).
 */
let memo: { key: string; rows: SourceRow[] } | undefined;
async function allSources(reads: RegionReads): Promise<SourceRow[]> {
  const key = reads.dataKey ?? (await loadedDataset(reads.db))?.checksum ?? "";
  if (memo?.key === key) return memo.rows;
  const rows = await sourceRows(reads.db);
  if (rows.length) memo = { key, rows };
  return rows;
}

const ref = (s: SourceRow): SourceRef => ({
  id: s.id,
  kind: s.kind,
  name: s.name,
  url: s.url,
  version: s.version,
  date: s.date,
  licence: s.licence,
  licence_url: s.licenceUrl,
  attribution: s.attribution,
  note: s.note,
});

const fromNote = (n: NoteRow): Correction => ({ kind: n.kind as CorrectionKind, value: n.value, basis: n.basis, source_file: n.sourceFile });

/** The coverage report's field behind each family that a region may lack. */
const GAP_OF: Partial<Record<Family, CoverageField[]>> = {
  coordinates: ["coordinates"],
  boundary: ["boundary"],
  postal_code: ["postal_code"],
  population_area: ["population", "area"],
  bps_codes: ["bps_code"],
};
const ABSENT: Partial<Record<Family, string>> = {
  coordinates: "No point: neither the centroid file nor a boundary has one for this region.",
  boundary: "No boundary is loaded for this region: the source has none for it.",
  postal_code: "No postal code: the source has none for this region.",
  population_area: "The source has no figure for this region.",
  bps_codes: "No BPS code leads to this region.",
};

/** Why a family has no value for this region (null: it has one). A retired code: the sources describe the current list only. */
function absence(family: Family, r: RegionFacts, gaps: CoverageField[]): string | null {
  if (r.is_active !== 1) return "A retired code: these sources describe the current list and say nothing of it; the record is as the code was last published.";
  return GAP_OF[family]?.some((g) => gaps.includes(g)) ? (ABSENT[family] ?? null) : null;
}

/** The `sources` object of a region's answer: every family its level has. */
export async function regionSources(reads: RegionReads, r: RegionFacts): Promise<RegionSources> {
  const db = reads.db;
  const [sources, notes, reports, origin, gaps] = await Promise.all([
    allSources(reads),
    noteRows(db, r.id),
    acceptedReports(db, r.id),
    codeOrigin(reads, r.id, r.is_active === 1),
    r.is_active === 1 ? missingFields(db, r.level, r.id) : [],
  ]);
  const corrections = new Map<Family, Correction[]>(FAMILIES.map((f) => [f, []]));
  for (const n of notes) corrections.get(n.family as Family)?.push(fromNote(n));
  for (const rep of reports) {
    const { family, correction } = reportCorrection(rep);
    corrections.get(family)?.push(correction);
  }
  const datasets = sources.filter((s) => s.kind === "dataset");
  const regulations = new Map(sources.filter((s) => s.kind === "regulation").map((s) => [s.edition, s]));
  const cite = (e: EditionCite): RegulationCite => ({ ...e, date: regulations.get(e.edition)?.date ?? null });
  const currentList = sources.findLast((s) => s.kind === "regulation");

  const family = (f: Family): FamilySources => {
    const own = datasets.filter((s) => s.families.split(" ").includes(f));
    const picked =
      f === "bps_codes"
        ? own.filter((s) => s.id === CITED_SOURCES.bps || r.bps_codes.some((b) => s.id === CITED_SOURCES.bpsPeriod(b.period)))
        : f === "code_name"
          ? own.filter((s) => s.id !== CITED_SOURCES.curated || (corrections.get(f)?.length ?? 0) > 0)
          : own;
    return {
      covers: COVERS[f](r.level),
      sources: picked.map(ref),
      corrections: corrections.get(f) ?? [],
      note: f === "code_name" ? null : absence(f, r, gaps),
    };
  };

  const base = family("code_name");
  const cited = new Set([origin?.code.edition, origin?.name.edition, origin?.until?.edition, currentList?.edition].filter((e): e is string => !!e));
  const codeName: CodeNameSources = {
    ...base,
    sources: [...base.sources, ...[...regulations.values()].filter((s) => s.edition && cited.has(s.edition)).map(ref)],
    list: { edition: currentList?.edition ?? "", regulation: currentList?.version ?? "", date: currentList?.date ?? null, at_or_before: false },
    code_set_in: origin ? { ...cite(origin.code), change: origin.code.change } : null,
    name_set_in: origin ? cite(origin.name) : null,
    name_as_published: origin?.name_as_published && origin.name_as_published !== r.name ? origin.name_as_published : null,
    until: origin?.until ? cite(origin.until) : null,
    note: origin
      ? origin.name_as_published && origin.name_as_published !== r.name
        ? `The name is written as ${r.is_active ? "idn-area-data writes it" : "the region tables keep it"}; edition ${origin.until?.edition ?? currentList?.edition} publishes "${origin.name_as_published}".`
        : null
      : "No edition of the code list (2015 on) holds this code: it comes from an earlier release of idn-area-data, and when it was set cannot be told.",
  };
  const out: RegionSources = { code_name: codeName };
  for (const f of LEVEL_FAMILIES[r.level]) if (f !== "code_name") out[f] = family(f);
  return out;
}

/** The page /docs/guide/sources: every source with its licence and attribution, datasets first, then the regulations. */
export async function listSources(
  reads: RegionReads,
): Promise<(SourceRef & { families: Family[]; files: string[]; processing: string | null; edition: string | null })[]> {
  return (await allSources(reads)).map((s) => ({
    ...ref(s),
    families: s.families.split(" ") as Family[],
    files: s.files ? s.files.split("|") : [],
    processing: s.processing,
    edition: s.edition,
  }));
}
