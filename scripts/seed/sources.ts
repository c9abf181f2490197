/**
 * Provenance for the seed (issue 40): reads seed/sources/sources.json, checks it against
 * seed/sources/README.md (the attribution file: every file of seed/sources/ is some dataset's, and
 * each version and licence the manifest states is the one the README states for that file) and
 * seed/editions.json (one regulation per edition, the same text), and renders the `wilayah_source`
 * table (src/wilayah/sources). `sourceNotes` turns the hand corrections the seed applies (curated
 * history links, name readings, aliases, hand-set alternative names, points derived from a
 * boundary, island moves) into `wilayah_source_note` rows, each citing its basis.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { BPS_PERIODS, CITED_SOURCES, type CorrectionKind, FAMILIES, type Family } from "../../src/wilayah/sources/families.ts";
import { insertStatements, root } from "../lib.ts";
import type { Edition } from "./history-editions.ts";
import { lit } from "./region-sql.ts";

/** A seed directory's sources manifest (seed/sources/sources.json). */
export const readSourcesManifest = (seedDir: string) => JSON.parse(readFileSync(join(seedDir, "sources", "sources.json"), "utf8")) as SourcesManifest;

type ManifestDataset = {
  id: string;
  families: Family[];
  name: string;
  url: string | null;
  version: string | null;
  date: string | null;
  licence: string | null;
  licence_url: string | null;
  attribution: string;
  files: string[];
  processing: string | null;
  note: string | null;
};
type ManifestRegulation = { edition: string; regulation: string; date: string | null; note: string | null };
export type SourcesManifest = { about: string; families: Record<Family, string>; datasets: ManifestDataset[]; regulations: ManifestRegulation[] };

/** A row of `wilayah_source`. */
export type SourceRow = {
  id: string;
  ord: number;
  kind: "dataset" | "regulation";
  families: Family[];
  name: string;
  url: string | null;
  version: string | null;
  date: string | null;
  licence: string | null;
  licenceUrl: string | null;
  attribution: string;
  edition: string | null;
  files: string[];
  processing: string | null;
  note: string | null;
};

/** How the README names a licence the manifest gives as an SPDX id. */
const LICENCE_WORDS: Record<string, RegExp> = { MIT: /\bMIT\b/, "ODbL-1.0": /ODbL 1\.0|Open Database License 1\.0/ };

/** The README's text about a file: its `###` section (a heading may name several files, or `{a,b}` alternatives) and the `##` heading above it. */
function readmeSection(readme: string, file: string): { heading: string; body: string } | null {
  let top = "";
  const parts = readme.split(/^(?=##+ )/m);
  for (const part of parts) {
    const line = part.slice(0, part.indexOf("\n"));
    if (line.startsWith("## ")) top = line;
    if (!line.startsWith("### ")) continue;
    const names = line
      .slice(4)
      .replace(/\{([^}]*)\}/g, (_, alts: string) => `{${alts.replaceAll(",", "|")}}`)
      .split(/,\s*|\s+\(/)
      .flatMap((n) => {
        const m = /^(.*)\{([^}]*)\}(.*)$/.exec(n.trim());
        return m ? m[2].split("|").map((alt) => `${m[1]}${alt}${m[3]}`) : [n.trim()];
      });
    if (names.includes(file)) return { heading: top, body: part };
  }
  return null;
}

/**
 * The manifest, checked. Throws on the first disagreement: a family or dataset file unknown, a file
 * of seed/sources/ no dataset names, a version or licence the README does not state for its file,
 * a regulation that is not the edition's.
 */
export function loadSources(
  seedDir: string,
  editions: readonly Edition[],
  manifest: SourcesManifest = readSourcesManifest(seedDir),
  readme = readFileSync(join(seedDir, "sources", "README.md"), "utf8"),
  sourceFiles = readdirSync(join(seedDir, "sources")),
): SourceRow[] {
  const fail = (why: string): never => {
    throw new Error(`seed/sources/sources.json: ${why}`);
  };
  const rows: SourceRow[] = [];
  const ids = new Set<string>();
  for (const d of manifest.datasets) {
    if (ids.has(d.id)) fail(`dataset "${d.id}" twice`);
    ids.add(d.id);
    for (const f of d.families)
      if (!(FAMILIES as readonly string[]).includes(f)) fail(`dataset "${d.id}": unknown family "${f}" (one of ${FAMILIES.join(", ")})`);
    if (!d.attribution.trim()) fail(`dataset "${d.id}" has no attribution`);
    if ((d.version === null || d.licence === null) && !d.note) fail(`dataset "${d.id}" lacks a version or licence and says nothing of it in "note"`);
    if (d.licence !== null && !LICENCE_WORDS[d.licence]) fail(`dataset "${d.id}": licence "${d.licence}" is none of ${Object.keys(LICENCE_WORDS).join(", ")}`);
    for (const file of d.files) {
      const local = /^seed\/sources\/(.+)$/.exec(file)?.[1];
      if (!local) {
        if (!d.id.startsWith("idn-area-data") && !existsSync(join(root, file))) fail(`dataset "${d.id}": no file ${file}`);
        continue;
      }
      if (!sourceFiles.includes(local)) fail(`dataset "${d.id}": no file ${file}`);
      const section = readmeSection(readme, local);
      if (!section) fail(`dataset "${d.id}": seed/sources/README.md has no section on ${local}`);
      const text = `${section?.heading}\n${section?.body}`;
      if (d.version !== null && !text.includes(d.version)) fail(`dataset "${d.id}": seed/sources/README.md does not state version ${d.version} for ${local}`);
      if (d.licence !== null && !LICENCE_WORDS[d.licence].test(text))
        fail(`dataset "${d.id}": seed/sources/README.md does not state licence ${d.licence} for ${local}`);
      if (d.licence === null && !/no licence/i.test(text)) fail(`dataset "${d.id}": licence null, but seed/sources/README.md states one for ${local}`);
    }
    rows.push({
      id: d.id,
      ord: rows.length,
      kind: "dataset",
      families: d.families,
      name: d.name,
      url: d.url,
      version: d.version,
      date: d.date,
      licence: d.licence,
      licenceUrl: d.licence_url,
      attribution: d.attribution,
      edition: null,
      files: d.files,
      processing: d.processing,
      note: d.note,
    });
  }
  for (const id of [CITED_SOURCES.names, CITED_SOURCES.bps, CITED_SOURCES.curated, ...BPS_PERIODS.map(CITED_SOURCES.bpsPeriod)])
    if (!ids.has(id)) fail(`dataset "${id}" is missing: src/wilayah/sources/service.ts cites it by id`);
  // idn-area-data arrives as a package, not a file: the README's section on it states its release and licence.
  const idn = manifest.datasets.find((d) => d.id === CITED_SOURCES.names);
  const idnSection = readme.slice(readme.indexOf("## From idn-area-data"));
  if (!idn || !idnSection.includes(idn.version ?? "-") || !/ODbL/.test(idnSection))
    fail(`"idn-area-data" must be listed with the release and licence seed/sources/README.md states`);
  for (const file of sourceFiles) {
    if (file === "README.md" || file === "sources.json") continue;
    if (!manifest.datasets.some((d) => d.files.includes(`seed/sources/${file}`))) fail(`seed/sources/${file} belongs to no dataset`);
  }
  // One regulation per edition, in the registry's order: its text is seed/editions.json's; the
  // date is the registry's (editions taken in with edition:add carry one) or the manifest's.
  const byEdition = new Map(manifest.regulations.map((r) => [r.edition, r]));
  for (const r of manifest.regulations) if (!editions.some((e) => e.id === r.edition)) fail(`regulation of unknown edition "${r.edition}"`);
  for (const e of editions) {
    const m = byEdition.get(e.id);
    if (m && m.regulation !== e.regulation) fail(`edition ${e.id}: regulation "${m.regulation}" is not seed/editions.json's "${e.regulation}"`);
    rows.push({
      id: `edition-${e.id}`,
      ord: rows.length,
      kind: "regulation",
      families: ["code_name"],
      name: `Edition ${e.id} of the Kemendagri code list`,
      url: null,
      version: e.regulation,
      date: e.date ?? m?.date ?? null,
      licence: null,
      licenceUrl: null,
      attribution: `Region codes and names: ${e.regulation} (Kementerian Dalam Negeri).`,
      edition: e.id,
      files: e.file ? [`seed/${e.file}`] : ["seed/sources/wilayah-editions.csv.gz"],
      processing: null,
      note:
        [
          m?.note,
          e.added ? `Taken in with npm run edition:add on ${e.added}.` : null,
          // idn-area-data names the codes of edition 2025 only: a later edition current brings its own names
          e === editions.at(-1) && !e.regions
            ? "The region tables' names follow this edition's own list; a name it did not change keeps the spelling served before (idn-area-data's)."
            : null,
        ]
          .filter(Boolean)
          .join(" ") || null,
    });
  }
  return rows;
}

/** A row of `wilayah_source_note`: a hand correction or addition to one region's data, with its basis. */
export type SourceNote = { regionId: string; family: Family; kind: Exclude<CorrectionKind, "report">; value: string; basis: string; sourceFile: string };

/** The seed's hand corrections, one note per (region, family, kind, value). */
export function sourceNotes(input: {
  curated: { edition: string; oldCode: string; newCode: string; relation: "successor" | "part"; source: string }[];
  nameReadings: { typed: string; reads: string; kind: string; id?: string; source: string }[];
  aliases: { id: string; alias: string; kind: string; source: string }[];
  /** Alternative names and aliases written in scripts/seed/build.ts (no file cites a source for them). */
  coded: { id: string; kind: "alt_name" | "alias"; value: string }[];
  derivedPoints: string[];
  islandMoves: { oldCode: string; newCode: string; name: string; oldKabupaten: string; newKabupaten: string }[];
}): SourceNote[] {
  const out = new Map<string, SourceNote>();
  const add = (n: SourceNote) => {
    const key = [n.regionId, n.family, n.kind, n.value].join("\u001f");
    if (!out.has(key)) out.set(key, n);
  };
  for (const c of input.curated) {
    const value =
      c.relation === "successor"
        ? `${c.oldCode} became ${c.newCode} in edition ${c.edition}`
        : `${c.newCode} was formed from part of ${c.oldCode} in edition ${c.edition}`;
    for (const regionId of [c.newCode, c.oldCode])
      add({ regionId, family: "code_name", kind: "curated_history", value, basis: c.source, sourceFile: "seed/history-curated.csv" });
  }
  for (const r of input.nameReadings) {
    if (!r.id) continue;
    add({
      regionId: r.id,
      family: "code_name",
      kind: "name_reading",
      value: `"${r.typed}" is read as "${r.reads}" (${r.kind})`,
      basis: r.source,
      sourceFile: "seed/name-table.csv",
    });
  }
  for (const a of input.aliases)
    add({ regionId: a.id, family: "code_name", kind: "alias", value: `${a.alias} (${a.kind})`, basis: a.source, sourceFile: "seed/aliases.csv" });
  const listed = new Set(input.aliases.map((a) => `${a.id}\u001f${a.alias.toLowerCase()}`));
  for (const c of input.coded) {
    if (c.kind === "alias" && listed.has(`${c.id}\u001f${c.value.toLowerCase()}`)) continue;
    add({
      regionId: c.id,
      family: "code_name",
      kind: c.kind,
      value: c.kind === "alias" ? `${c.value} (search only)` : c.value,
      basis:
        c.kind === "alt_name"
          ? "the name in everyday use, set by hand; no document is cited"
          : "a spelling in everyday use, set by hand for search; no document is cited",
      sourceFile: "scripts/seed/build.ts",
    });
  }
  for (const id of input.derivedPoints)
    add({
      regionId: id,
      family: "coordinates",
      kind: "derived_point",
      value: "a point inside the region's boundary",
      basis: "the centroid file has no point for this region; derived from its boundary (interiorPoint, src/wilayah/geo/geometry.ts)",
      sourceFile: "scripts/seed/build.ts",
    });
  for (const m of input.islandMoves) {
    const value = `island ${m.name}: ${m.oldCode} (${m.oldKabupaten}) became ${m.newCode} (${m.newKabupaten})`;
    for (const regionId of [m.oldKabupaten, m.newKabupaten])
      add({
        regionId,
        family: "islands",
        kind: "island_move",
        value,
        basis: "Kepmendagri 300.2.2-2430/2025 moved it; idn-area-data 4.0.1 still lists it under the old regency",
        sourceFile: "seed/sources/wilayah-2430-island-moves.csv",
      });
  }
  return [...out.values()].sort((a, b) => (a.regionId < b.regionId ? -1 : a.regionId > b.regionId ? 1 : 0));
}

const MAX_STATEMENT_BYTES = 60_000;

export function sourcesSql(sources: SourceRow[], notes: SourceNote[]): string {
  const sourceTuples = sources.map(
    (s) =>
      `(${[
        s.id,
        s.ord,
        s.kind,
        s.families.join(" "),
        s.name,
        s.url,
        s.version,
        s.date,
        s.licence,
        s.licenceUrl,
        s.attribution,
        s.edition,
        s.files.join("|") || null,
        s.processing,
        s.note,
      ]
        .map(lit)
        .join(",")})`,
  );
  const noteTuples = notes.map((n) => `(${[n.regionId, n.family, n.kind, n.value, n.basis, n.sourceFile].map(lit).join(",")})`);
  return `-- Sources: from seed/sources/sources.json (checked against seed/sources/README.md) and the hand corrections of the seed (no quote may stand in this comment: seed:apply scans the SQL for string literals). Do not edit.
DELETE FROM wilayah_source;
DELETE FROM wilayah_source_note;
${insertStatements("wilayah_source", "id, ord, kind, families, name, url, version, date, licence, licence_url, attribution, edition, files, processing, note", sourceTuples, MAX_STATEMENT_BYTES)}${insertStatements("wilayah_source_note", "region_id, family, kind, value, basis, source_file", noteTuples, MAX_STATEMENT_BYTES)}`;
}
