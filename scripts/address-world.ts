/**
 * Builds the real-world address sets, labelled independently of their text: a development set
 * (test/fixtures/address-world.json) and a held-out set (test/fixtures/address-world-heldout.json,
 * never used to tune), from the Indonesian school list of suryavip/daftar-sekolah-indonesia (MIT,
 * data of sekolah.data.kemdikbud.go.id), with its attribution and figures in
 * test/fixtures/address-world.README.md; and a sample of raw, unlabelled addresses
 * (.wrangler/address-raw.json, not committed: see RAW_FILE) when that source's mirror is there. Scored by
 * scripts/address-world-rates.ts (`npm run address:quality -- --world | --heldout | --raw`).
 *
 *   npm run address:world -- [--mirror PATH] [--raw-mirror PATH]
 *
 * `--mirror`: the school list as a git directory (bare or not; `result/*.json` at HEAD) or a checkout
 * holding `result/`; default /work/.mirror/suryavip+daftar-sekolah-indonesia/repo/.git.
 * `--raw-mirror`: a git directory holding the Shopee Code League 2021 address data
 * (`Challenge_2/data/test.csv`); default /work/.mirror/MarkHershey+shopee-code-league-2021/repo;
 * skipped (the committed file kept) when absent.
 *
 * The label of a school is the Kemendagri kecamatan whose polygon
 * (seed/sources/wilayah-boundaries-kecamatan.csv.gz, even-odd over all rings) holds its point
 * (lintang, bujur), with its kabupaten and provinsi: the Kemdikbud codes of the list are never used.
 * A school is kept only when the text agrees with the point (two independent sources):
 * - its written kabupaten/kota (`Kab. X` / `Kota X`, prefix stripped) is closest, among the point's
 *   province's kabupaten/kota of the written kind, to the point's kabupaten, uniquely, within
 *   max(3, 40% of the written length) edits;
 * - its written kecamatan (`Kec.` stripped) is closest, among the point's kabupaten's kecamatan, to
 *   the point's kecamatan, uniquely (ties rejected), within the same bound.
 * Names are compared after search normalisation (src/wilayah/normalize.ts), punctuation dropped
 * (`D.K.I.` -> `dki`), over every spelling the seed has for a region (name, short name, aliases,
 * former names), each both as written and with the short forms expanded (`formKey`); the distance
 * is the optimal-string-alignment edit distance.
 *
 * Sample: deterministic (order by a hash of the NPSN), stratified by the label's province: 80
 * schools per province where there are that many, the rest of ~3,000 taken round-robin from the
 * provinces with more; then split by another hash of the NPSN, half development, half held-out.
 * Each school gives two cases, the text with and without its province.
 *
 * The names and points: scripts/address-world-labels.ts; the fixture's README:
 * scripts/address-world-readme.ts.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseCsvRows } from "../src/lib/csv.ts";
import {
  type Candidate,
  closest,
  KAB_PREFIX,
  kecForm,
  nameKey,
  polygonLocator,
  villageInStreet,
  writtenKabupaten,
  writtenKecamatan,
  writtenProvinsi,
} from "./address-world-labels.ts";
import type { WorldCase } from "./address-world-rates.ts";
import { type Drops, type RawSample, type WorldBuild, worldReadme } from "./address-world-readme.ts";
import { isMain, root, SEED_DIR } from "./lib.ts";
import { buildSeed } from "./seed/build.ts";
import type { Row } from "./seed/region-sql.ts";
import { readShapes, SCALE } from "./seed/shapes.ts";

const DEFAULT_MIRROR = "/work/.mirror/suryavip+daftar-sekolah-indonesia/repo/.git";
const DEFAULT_RAW_MIRROR = "/work/.mirror/MarkHershey+shopee-code-league-2021/repo";
const RAW_PATH = "Challenge_2/data/test.csv";
const FIXTURES = join(root, "test", "fixtures");
/** The larger development set (tuning only): under .wrangler/, not committed. */
export const EXTRA_FILE = join(root, ".wrangler", "address-world-extra.json");
const EXTRA_EVERY = 10;
/**
 * The harder variant (issue 52): the same sampling over the schools whose written kecamatan
 * disagrees with their point's too (the sets above drop them), split the same way; the held-out
 * half committed (report and calibration only), the development half under .wrangler/ (tuning).
 */
export const HARD_HELDOUT = "address-world-heldout-hard.json";
export const HARD_DEV_FILE = join(root, ".wrangler", "address-world-hard.json");
/** The raw sample: under .wrangler/ (ignored by git), built from a local mirror only. */
export const RAW_FILE = join(root, ".wrangler", "address-raw.json");
const TARGET = 3000;
const PER_PROVINCE = 80;
const RAW_SIZE = 1000;

/** A school of the list, the fields used. */
type School = {
  npsn: string;
  propinsi: string;
  kabupaten_kota: string;
  kecamatan: string;
  alamat_jalan: string | null;
  lintang: string | null;
  bujur: string | null;
};

/** The school's point in 1e-5 degrees, or null when missing, unreadable or (0, 0). */
function pointOf(s: School): { x: number; y: number } | null {
  const lat = Number(s.lintang?.trim() || Number.NaN);
  const lng = Number(s.bujur?.trim() || Number.NaN);
  if (!Number.isFinite(lat) || !Number.isFinite(lng) || (lat === 0 && lng === 0)) return null;
  return { x: Math.round(lng * SCALE), y: Math.round(lat * SCALE) };
}

// ---------------------------------------------------------------- sources

const git = (gitDir: string, args: string[]) => {
  const r = spawnSync("git", [`--git-dir=${gitDir}`, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} in ${gitDir}: ${r.stderr}`);
  return r.stdout;
};

/** The git directory of a mirror path (bare, or a work tree with .git), or null. */
function gitDirOf(path: string): string | null {
  if (existsSync(join(path, "HEAD")) && existsSync(join(path, "objects"))) return path;
  if (existsSync(join(path, ".git")) && statSync(join(path, ".git")).isDirectory()) return join(path, ".git");
  return null;
}

/** Every school of the list (result/*.json), and the commit read (null for a checkout). */
function readSchools(mirror: string): { schools: School[]; commit: string | null } {
  const texts: string[] = [];
  let commit: string | null = null;
  if (existsSync(join(mirror, "result")) && statSync(join(mirror, "result")).isDirectory()) {
    for (const f of readdirSync(join(mirror, "result"))
      .filter((f) => f.endsWith(".json"))
      .sort())
      texts.push(readFileSync(join(mirror, "result", f), "utf8"));
  } else {
    const gitDir = gitDirOf(mirror);
    if (!gitDir) throw new Error(`${mirror}: neither a git directory nor a folder with result/`);
    commit = git(gitDir, ["rev-parse", "HEAD"]).trim();
    const files = git(gitDir, ["ls-tree", "--name-only", "HEAD", "result/"])
      .split("\n")
      .filter((f) => f.endsWith(".json"))
      .sort();
    for (const f of files) texts.push(git(gitDir, ["show", `HEAD:${f}`]));
  }
  const schools: School[] = [];
  for (const t of texts) for (const list of Object.values(JSON.parse(t) as Record<string, School[]>)) schools.push(...list);
  return { schools, commit };
}

const hash = (s: string) => createHash("sha256").update(s).digest("hex");

// ---------------------------------------------------------------- build

type Labelled = {
  school: School;
  kecamatan_id: string;
  kabupaten_id: string;
  provinsi_id: string;
  /** The written province's id when it is the point's (the 2022 Papua splits make it differ). */
  namedProvinsi: string | null;
};

async function build(mirror: string): Promise<WorldBuild> {
  const { schools, commit } = readSchools(mirror);
  const { rows } = await buildSeed(SEED_DIR);
  const active = rows.filter((r) => r.isActive === 1);
  const byId = new Map(active.map((r) => [r.id, r]));
  const childrenOf = new Map<string, Row[]>();
  for (const r of active) if (r.parentId) childrenOf.set(r.parentId, [...(childrenOf.get(r.parentId) ?? []), r]);
  const strip = (s: string) => s.replace(KAB_PREFIX, "");
  const keysOf = (r: Row, bare = false) => [
    ...new Set([r.name, r.altName, ...r.aliases, ...r.former].map((s) => nameKey(bare ? strip(s) : s)).filter(Boolean)),
  ];
  const provinces: Candidate[] = active.filter((r) => r.level === "provinsi").map((r) => ({ id: r.id, keys: keysOf(r) }));
  const locate = polygonLocator(await readShapes(join(SEED_DIR, "sources", "wilayah-boundaries-kecamatan.csv.gz")));

  const drops: Drops = { duplicate: 0, noPoint: 0, outside: 0, severalPolygons: 0, kabupaten: 0, kecamatan: 0 };
  /** Schools whose written kecamatan is not their point's (its kabupaten agreeing): the harder variant keeps them. */
  const disagreeing: Labelled[] = [];
  const seen = new Set<string>();
  const kabMemo = new Map<string, string | null>();
  const kecMemo = new Map<string, string | null>();
  const provMemo = new Map<string, string | null>();
  const accepted: Labelled[] = [];
  let provinceDiffers = 0;
  for (const s of schools) {
    if (seen.has(s.npsn)) {
      drops.duplicate++;
      continue;
    }
    seen.add(s.npsn);
    const p = pointOf(s);
    if (!p) {
      drops.noPoint++;
      continue;
    }
    const hits = locate(p.x, p.y);
    if (hits.length === 0) {
      drops.outside++;
      continue;
    }
    if (hits.length > 1) {
      drops.severalPolygons++;
      continue;
    }
    const kec = byId.get(hits[0]);
    const kab = kec?.parentId ? byId.get(kec.parentId) : undefined;
    if (!kec || !kab?.parentId) throw new Error(`${hits[0]}: a kecamatan polygon without an active kecamatan and kabupaten in the seed`);
    const provinsiId = kab.parentId;
    // the written kabupaten/kota, among the point's province's of the written kind
    const wk = writtenKabupaten(s.kabupaten_kota);
    const kabKey = `${provinsiId}|${wk.kind}|${wk.name}`;
    if (!kabMemo.has(kabKey)) {
      const candidates = (childrenOf.get(provinsiId) ?? []).filter((r) => r.type === wk.kind).map((r) => ({ id: r.id, keys: keysOf(r, true) }));
      kabMemo.set(kabKey, wk.kind ? closest(nameKey(wk.name), candidates).id : null);
    }
    if (kabMemo.get(kabKey) !== kab.id) {
      drops.kabupaten++;
      continue;
    }
    // the written kecamatan, among the point's kabupaten's
    const wkec = writtenKecamatan(s.kecamatan);
    const kecKey = `${kab.id}|${wkec}`;
    if (!kecMemo.has(kecKey))
      kecMemo.set(
        kecKey,
        closest(
          nameKey(wkec),
          (childrenOf.get(kab.id) ?? []).filter((r) => r.level === "kecamatan").map((r) => ({ id: r.id, keys: keysOf(r) })),
        ).id,
      );
    const wp = writtenProvinsi(s.propinsi);
    if (!provMemo.has(wp)) provMemo.set(wp, closest(nameKey(wp), provinces).id);
    const namedProvinsi = provMemo.get(wp) === provinsiId ? provinsiId : null;
    const labelled = { school: s, kecamatan_id: kec.id, kabupaten_id: kab.id, provinsi_id: provinsiId, namedProvinsi };
    if (kecMemo.get(kecKey) !== kec.id) {
      drops.kecamatan++;
      disagreeing.push(labelled);
      continue;
    }
    if (!namedProvinsi) provinceDiffers++;
    accepted.push(labelled);
  }

  const { sample, order, taken, byProvince } = sampleOf(accepted);
  const dev: WorldCase[] = [];
  const heldout: WorldCase[] = [];
  const forms = new Map<string, number>();
  let villageWords = 0;
  for (const a of sample) {
    const pair = casesOf(a, byId);
    forms.set(pair[0].kec_form, (forms.get(pair[0].kec_form) ?? 0) + 1);
    if (pair[0].village_in_street) villageWords++;
    (isDevelopment(a) ? dev : heldout).push(...pair);
  }
  // The harder variant: the same sampling with the disagreeing schools kept (issue 52).
  const hard = sampleOf([...accepted, ...disagreeing]).sample;
  const disagrees = new Set(disagreeing.map((a) => a.school.npsn));
  const hardCases = (development: boolean) =>
    hard.filter((a) => isDevelopment(a) === development).flatMap((a) => casesOf(a, byId, disagrees.has(a.school.npsn)));
  const json = (cases: WorldCase[]) => `[\n${cases.map((c) => JSON.stringify(c)).join(",\n")}\n]\n`;
  // A larger development set, for tuning only, never committed: every accepted school of the
  // development half (by the same hash as the split, so no held-out school) outside the sample whose
  // kecamatan is written otherwise than exactly, and one in EXTRA_EVERY of the rest; with the province.
  const sampled = new Set(sample.map((a) => a.school.npsn));
  const extra: WorldCase[] = [];
  for (const a of accepted) {
    if (sampled.has(a.school.npsn) || !isDevelopment(a)) continue;
    const [withProvince] = casesOf(a, byId);
    if (withProvince.kec_form === "exact" && parseInt(hash(`world-extra:${a.school.npsn}`).slice(0, 8), 16) % EXTRA_EVERY !== 0) continue;
    extra.push(withProvince);
  }
  writeFileSync(EXTRA_FILE, json(extra));
  writeFileSync(join(FIXTURES, "address-world.json"), json(dev));
  writeFileSync(join(FIXTURES, "address-world-heldout.json"), json(heldout));
  const hardHeldout = hardCases(false);
  writeFileSync(HARD_DEV_FILE, json(hardCases(true)));
  writeFileSync(join(FIXTURES, HARD_HELDOUT), json(hardHeldout));
  const perProvince = order.map((id) => `${id} ${byId.get(id)?.altName}: ${taken.get(id)} of ${byProvince.get(id)?.length}`);
  const missingProvinces = provinces.filter((p) => !byProvince.has(p.id)).map((p) => p.id);
  return {
    commit,
    schools: schools.length,
    drops,
    accepted: accepted.length,
    provinceDiffers,
    sampled: sample.length,
    sampleProvinceDiffers: sample.filter((a) => !a.namedProvinsi).length,
    dev: dev.length,
    heldout: heldout.length,
    forms,
    villageWords,
    perProvince,
    missingProvinces,
    hard: { cases: hardHeldout.length, disagreeing: hardHeldout.filter((c) => c.kec_agrees === false).length / 2 },
  };
}

/** Development or held-out, by a hash of the NPSN (the same split for every set). */
const isDevelopment = (a: Labelled) => parseInt(hash(`world-split:${a.school.npsn}`).slice(0, 8), 16) % 2 === 0;

/** The sample: per province in hash order, PER_PROVINCE each, the rest round-robin up to TARGET. */
function sampleOf(list: Labelled[]) {
  const byProvince = new Map<string, Labelled[]>();
  for (const a of list) byProvince.set(a.provinsi_id, [...(byProvince.get(a.provinsi_id) ?? []), a]);
  const order = [...byProvince.keys()].sort();
  for (const id of order) byProvince.get(id)?.sort((a, b) => hash(`world-sample:${a.school.npsn}`).localeCompare(hash(`world-sample:${b.school.npsn}`)));
  const taken = new Map(order.map((id) => [id, Math.min(PER_PROVINCE, byProvince.get(id)?.length ?? 0)]));
  let total = [...taken.values()].reduce((a, b) => a + b, 0);
  for (let grew = true; total < TARGET && grew; ) {
    grew = false;
    for (const id of order) {
      if (total >= TARGET) break;
      const t = taken.get(id) ?? 0;
      if (t < (byProvince.get(id)?.length ?? 0)) {
        taken.set(id, t + 1);
        total++;
        grew = true;
      }
    }
  }
  return { sample: order.flatMap((id) => (byProvince.get(id) ?? []).slice(0, taken.get(id))), order, taken, byProvince };
}

/** A school's two cases, with and without its province; `disagrees`: its written kecamatan is not its point's (`kec_agrees: false`). */
function casesOf(a: Labelled, byId: Map<string, Row>, disagrees = false): [WorldCase, WorldCase] {
  const s = a.school;
  const street = (s.alamat_jalan ?? "").trim();
  const parts = [street, s.kecamatan.trim(), s.kabupaten_kota.trim(), s.propinsi.trim()].filter(Boolean);
  const label = { kecamatan_id: a.kecamatan_id, kabupaten_id: a.kabupaten_id, provinsi_id: a.provinsi_id };
  const facts = {
    kec_form: kecForm(writtenKecamatan(s.kecamatan), byId.get(a.kecamatan_id)?.name ?? ""),
    village_in_street: villageInStreet(street),
    ...(disagrees ? { kec_agrees: false as const } : {}),
  };
  const named = { ...(a.namedProvinsi ? { provinsi_id: a.namedProvinsi } : {}), kabupaten_id: a.kabupaten_id };
  return [
    { npsn: s.npsn, text: parts.join(", "), style: "with_province", ...label, named, ...facts },
    { npsn: s.npsn, text: parts.slice(0, -1).join(", "), style: "without_province", ...label, named: { kabupaten_id: a.kabupaten_id }, ...facts },
  ];
}

/** ~RAW_SIZE distinct raw addresses of the Shopee Code League 2021 test file, in the order of a hash of their row id; null when the mirror is absent. */
function buildRaw(rawMirror: string): RawSample | null {
  const gitDir = existsSync(rawMirror) ? gitDirOf(rawMirror) : null;
  if (!gitDir) return null;
  const commit = git(gitDir, ["rev-parse", "HEAD"]).trim();
  const [header, ...rows] = parseCsvRows(git(gitDir, ["show", `HEAD:${RAW_PATH}`]), { crlf: false });
  const col = header.indexOf("raw_address");
  const idCol = header.indexOf("id");
  if (col < 0 || idCol < 0) throw new Error(`${RAW_PATH}: no id/raw_address column`);
  const texts = new Set<string>();
  for (const r of rows
    .filter((r) => r[col]?.trim())
    .map((r) => ({ text: r[col].trim(), key: hash(`raw-sample:${r[idCol]}`) }))
    .sort((a, b) => a.key.localeCompare(b.key))) {
    if (texts.size >= RAW_SIZE) break;
    texts.add(r.text);
  }
  // Not committed: the data is Shopee's, released for a Kaggle competition under terms not checked here.
  writeFileSync(RAW_FILE, `[\n${[...texts].map((t) => JSON.stringify(t)).join(",\n")}\n]\n`);
  return { commit, rows: rows.length, sampled: texts.size };
}

async function main() {
  const args = process.argv.slice(2);
  const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const mirror = opt("--mirror", DEFAULT_MIRROR);
  const w = await build(mirror);
  const raw = buildRaw(opt("--raw-mirror", DEFAULT_RAW_MIRROR));
  const gitDir = gitDirOf(mirror);
  const licence = gitDir ? git(gitDir, ["show", "HEAD:LICENSE"]) : readFileSync(join(mirror, "LICENSE"), "utf8");
  writeFileSync(join(FIXTURES, "address-world.README.md"), worldReadme(w, raw, licence, { perProvince: PER_PROVINCE, target: TARGET, rawPath: RAW_PATH }));
  console.log(
    `${w.schools} schools; dropped: ${JSON.stringify(w.drops)}; accepted ${w.accepted} (${w.provinceDiffers} writing another province); sampled ${w.sampled}: ${w.dev} development cases, ${w.heldout} held-out`,
  );
  console.log(`kec_form: ${[...w.forms].map(([f, n]) => `${f} ${n}`).join(", ")}; village word in street: ${w.villageWords}`);
  console.log(`harder held-out variant: ${w.hard.cases} cases, ${w.hard.disagreeing} schools whose written kecamatan is not their point's`);
  console.log(w.missingProvinces.length ? `no school in ${w.missingProvinces.join(", ")}` : "every province present");
  console.log(raw ? `raw addresses: ${raw.sampled} of ${raw.rows} in ${RAW_FILE}` : "raw addresses: no mirror, none written");
}

if (isMain(import.meta.url)) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
}
