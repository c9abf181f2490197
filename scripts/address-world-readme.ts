/**
 * test/fixtures/address-world.README.md, written by scripts/address-world.ts from what it built:
 * the sources and their licences, how each school was labelled, the figures of each step.
 */

/** Schools dropped, by reason. */
export type Drops = { duplicate: number; noPoint: number; outside: number; severalPolygons: number; kabupaten: number; kecamatan: number };

/** What the build of the school sets counted. */
export type WorldBuild = {
  /** The list's commit (null: read from a checkout). */
  commit: string | null;
  schools: number;
  drops: Drops;
  accepted: number;
  provinceDiffers: number;
  sampled: number;
  sampleProvinceDiffers: number;
  dev: number;
  heldout: number;
  /** Schools per `kec_form`. */
  forms: Map<string, number>;
  villageWords: number;
  perProvince: string[];
  missingProvinces: string[];
  /** The harder variant's held-out half (issue 52): its cases, and its schools whose written kecamatan is not their point's. */
  hard: { cases: number; disagreeing: number };
};

/** The raw addresses sampled (null: the mirror was absent). */
export type RawSample = { commit: string; rows: number; sampled: number };

/** How the sample was drawn: schools per province, the target, the raw file's path in its repository. */
export type Sampling = { perProvince: number; target: number; rawPath: string };

export function worldReadme(w: WorldBuild, raw: RawSample | null, licence: string, sampling: Sampling): string {
  const { perProvince: PER_PROVINCE, target: TARGET, rawPath: RAW_PATH } = sampling;
  const d = w.drops;
  const dropped = d.duplicate + d.noPoint + d.outside + d.severalPolygons + d.kabupaten + d.kecamatan;
  const rawSection = raw
    ? `Source: the test file of the Shopee Code League 2021 "Address Elements Extraction" competition
(Kaggle competition \`scl-2021-ds\`, data by Shopee), \`${RAW_PATH}\` (${raw.rows.toLocaleString("en")} rows,
columns \`id,raw_address\`) as copied into the public repository github.com/MarkHershey/shopee-code-league-2021,
commit ${raw.commit.slice(0, 7)}. ${raw.sampled} distinct addresses, the first by a SHA-256 hash of the row id.`
    : "Not built here (the source mirror was absent).";
  return `# Real-world address sets

Built by \`npm run address:world\` (scripts/address-world.ts); scored by scripts/address-world-rates.ts
(\`npm run address:quality -- --world\`, \`--heldout\`, \`--raw\`).

- \`address-world.json\`: the development set (${w.dev} cases).
- \`address-world-heldout.json\`: the held-out set (${w.heldout} cases). **Never use it to tune the
  resolver** (no rule, word list, threshold or weight may be chosen by looking at it or its misses); only
  report its figures, at most once per change, next to the development set's.
- \`address-world-heldout-hard.json\`: the harder variant of the held-out set (${w.hard.cases} cases), which keeps the schools whose written
  kecamatan disagrees with their point's (${w.hard.disagreeing} of its schools, \`kec_agrees: false\`): report and calibration
  only, like the held-out set (its development half, for tuning, is \`.wrangler/address-world-hard.json\`, not committed).
- \`.wrangler/address-raw.json\` (not committed): raw, unlabelled addresses, for coverage and robustness only.
  The repository they were copied into states no licence and the data is Shopee's, released for a Kaggle
  competition whose terms could not be checked here: the sample is built locally from a mirror of that
  repository and never committed.

## Schools: source and licence

Source: the Indonesian school list of github.com/suryavip/daftar-sekolah-indonesia (\`result/*.json\`,
commit ${w.commit ? w.commit.slice(0, 7) : "(a checkout)"}), data collected from sekolah.data.kemdikbud.go.id.
Facts of that list (school id, street address as registered, its kecamatan, kabupaten/kota and province
as written, coordinates) are used under its licence:

\`\`\`
${licence.trim()}
\`\`\`

## Labels

The codes in the list are Kemdikbud's own and are not used. The label of a school is the Kemendagri
kecamatan whose polygon (seed/sources/wilayah-boundaries-kecamatan.csv.gz, even-odd over all rings)
holds its point (lintang, bujur), with that kecamatan's kabupaten/kota and provinsi in the seed. A school
is kept only when its text agrees with its point:

- its written kabupaten/kota (\`Kab. X\`/\`Kota X\`, prefix stripped) is, among the kabupaten/kota of the
  point's province of the written kind (Kab or Kota), uniquely the closest to the point's kabupaten;
- its written kecamatan (\`Kec.\` stripped) is, among the kecamatan of the point's kabupaten, uniquely
  the closest to the point's kecamatan (ties rejected);

both within max(3, 40% of the written length) edits (optimal string alignment distance), names
search-normalised with punctuation dropped, over each region's spellings in the seed (name, short name,
aliases, former names), as written and with short forms expanded (Sei -> Sungai, Sel./Utr./Tim./Bar./Tgh.,
Bt. -> Batu, Kp. -> Kampung, Bukik -> Bukit, Kep. -> Kepulauan, Roman numerals I-IV -> Satu..Empat, a leading Kota dropped, spaces removed).

Schools: ${w.schools.toLocaleString("en")}; dropped ${dropped.toLocaleString("en")}:
duplicate NPSN ${d.duplicate}; no point (missing, unreadable or 0,0) ${d.noPoint.toLocaleString("en")};
point outside every kecamatan polygon ${d.outside.toLocaleString("en")}; point in several polygons ${d.severalPolygons.toLocaleString("en")};
kabupaten/kota disagreement ${d.kabupaten.toLocaleString("en")}; kecamatan disagreement (kabupaten agreeing)
${d.kecamatan.toLocaleString("en")}. Accepted: ${w.accepted.toLocaleString("en")}, of which ${w.provinceDiffers.toLocaleString("en")} write a
province other than the point's (the list predates the 2022 Papua splits: \`Prov. Papua\` for a school now
in Papua Selatan; their cases name no province: \`named.provinsi_id\` absent).

## Sample and cases

Deterministic: in each province (of the label) the schools in the order of a SHA-256 hash of their NPSN,
${PER_PROVINCE} per province where there are that many, the rest up to ${TARGET.toLocaleString("en")} round-robin from the
provinces with more; ${w.sampled.toLocaleString("en")} schools (${w.sampleProvinceDiffers} writing another province).
Split by another hash of the NPSN: development ${w.dev / 2} schools, held-out ${w.heldout / 2}.
Per province (id, taken of accepted): ${w.perProvince.join("; ")}.${w.missingProvinces.length ? ` No school accepted in: ${w.missingProvinces.join(", ")}.` : ""}

The harder variant (issue 52): the same sampling over the accepted schools and those dropped for a kecamatan
disagreement together (their label is still their point's kecamatan; the kabupaten agrees), split by the same
hash. The sets above drop those schools, which makes them easier than the country's writing.

Each school gives two cases: \`with_province\`, the address as registered,
\`\${alamat_jalan}, \${kecamatan}, \${kabupaten_kota}, \${propinsi}\` (the fields as written, with their
\`Kec.\`/\`Kab.\`/\`Kota\`/\`Prov.\` prefixes; an empty street left out), and \`without_province\`, the same
without the province. Fields: \`npsn\`, \`text\`, \`style\`, the label (\`kecamatan_id\`, \`kabupaten_id\`,
\`provinsi_id\`, from the point), \`named\` (what the text names unambiguously: the written province when it
is the point's, with_province only, and the written kabupaten/kota, as label ids), \`kec_form\` (the written
kecamatan against the label's name: \`exact\` normalised equal, \`form\` equal after expanding short forms,
\`typo\` 1-2 edits otherwise, \`other\`; schools: ${["exact", "form", "typo", "other"].map((f) => `${f} ${w.forms.get(f) ?? 0}`).join(", ")}),
\`village_in_street\` (the street part holds Ds./Desa/Kel./Kelurahan/Dusun/Dsn./Dukuh/Kampung/Kp./Gampong/
Nagari/Jorong/Pekon/Lingkungan: ${w.villageWords} schools).

## Raw addresses (unlabelled)

${rawSection}

No licence is stated in that repository, and the data is Shopee's, published for the competition under
Kaggle's competition rules (which commonly limit use to the competition and non-commercial research).
Used here only to measure coverage (how many addresses get any answer) and robustness (no exception);
settle the terms before shipping the file anywhere outside this repository.
`;
}
