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
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseCsvRows } from "../src/lib/csv.ts";
import { editDistance } from "../src/wilayah/edits.ts";
import { normalizeSearchText } from "../src/wilayah/normalize.ts";
import type { WorldCase } from "./address-world-rates.ts";
import { isMain, root, seedDir } from "./lib.ts";
import { buildSeed } from "./seed/build.ts";
import type { Row } from "./seed/region-sql.ts";
import { readShapes, SCALE, type Shapes } from "./seed/shapes.ts";

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

// ---------------------------------------------------------------- names

/** A name for comparison: search-normalised, initialisms joined (`d.k.i.` -> `dki`), other punctuation a space. */
export function nameKey(s: string): string {
  return normalizeSearchText(s)
    .replace(/\b([a-z])\.([a-z])\.(?:([a-z])\.)?/g, (_m, a: string, b: string, c: string | undefined) => `${a}${b}${c ?? ""} `)
    .replace(/['`]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();
}

/** Short forms of names, expanded by `formKey` (Roman numerals as the seed writes them: `Ilir Timur II` = `Ilir Timur Dua`). */
const SHORT_FORMS: Record<string, string> = {
  sei: "sungai",
  sel: "selatan",
  utr: "utara",
  tim: "timur",
  bar: "barat",
  tgh: "tengah",
  bt: "batu",
  kp: "kampung",
  bukik: "bukit",
  kep: "kepulauan",
  i: "satu",
  ii: "dua",
  iii: "tiga",
  iv: "empat",
};

/** A name key with its short forms expanded, a leading `kota` dropped and no spaces (`Sei Bingai` = `Sungaibingai`, `Kep. Sangihe` = `Kepulauan Sangihe`). */
export function formKey(key: string): string {
  return key
    .split(" ")
    .map((w) => SHORT_FORMS[w] ?? w)
    .join(" ")
    .replace(/^kota (?=\S)/, "")
    .replaceAll(" ", "");
}

const nameDistance = (a: string, b: string) => Math.min(editDistance(a, b), editDistance(formKey(a), formKey(b)));

type Candidate = { id: string; keys: string[] };

/** The candidate closest to `written` (a name key): its id, or null on a tie or beyond max(3, 40% of the length) edits. */
export function closest(written: string, candidates: Candidate[]): { id: string | null; d: number } {
  let best = Number.POSITIVE_INFINITY;
  let bestIds: string[] = [];
  for (const c of candidates) {
    const d = Math.min(...c.keys.map((k) => nameDistance(written, k)));
    if (d < best) {
      best = d;
      bestIds = [c.id];
    } else if (d === best && !bestIds.includes(c.id)) bestIds.push(c.id);
  }
  if (bestIds.length !== 1 || best > Math.max(3, 0.4 * written.length)) return { id: null, d: best };
  return { id: bestIds[0], d: best };
}

const KAB_PREFIX = /^\s*(?:kabupaten administrasi|kota administrasi|kabupaten|kab|kota)\b\.?\s*/i;

/** The written kabupaten/kota: its kind and its bare name; null kind when it has no prefix. */
export function writtenKabupaten(s: string): { kind: "kabupaten" | "kota" | null; name: string } {
  const m = /^\s*(kabupaten|kab|kota)\b\.?\s*/i.exec(s);
  if (!m) return { kind: null, name: s.trim() };
  return { kind: m[1].toLowerCase() === "kota" ? "kota" : "kabupaten", name: s.slice(m[0].length).trim() };
}

export const writtenKecamatan = (s: string) => s.replace(/^\s*(?:kecamatan|kec|kek)\b\.?\s*/i, "").trim();
const writtenProvinsi = (s: string) => s.replace(/^\s*(?:provinsi|prov)\b\.?\s*/i, "").trim();

/** The written kecamatan against the label's name (see WorldCase.kec_form). */
export function kecForm(written: string, label: string): WorldCase["kec_form"] {
  const w = nameKey(written);
  const l = nameKey(label);
  if (w === l) return "exact";
  if (formKey(w) === formKey(l)) return "form";
  return Math.min(editDistance(w, l), editDistance(formKey(w), formKey(l))) <= 2 ? "typo" : "other";
}

/** A village or hamlet word in the street part. */
const VILLAGE_WORD = /\b(?:ds|desa|kel|kelurahan|dusun|dsn|dukuh|dk|kampung|kp|gampong|nagari|jorong|pekon|lingkungan|lingk)\b/i;
export const villageInStreet = (street: string) => VILLAGE_WORD.test(street);

// ---------------------------------------------------------------- points

/** Finds the polygons holding a point (1e-5 degrees): bbox prefilter on a grid of 0.25 degrees, even-odd over all rings. */
export function polygonLocator(s: Shapes): (x: number, y: number) => string[] {
  const n = s.ids.length;
  const box = new Int32Array(4 * n);
  const CELL = 0.25 * SCALE;
  const grid = new Map<number, number[]>();
  const cell = (cx: number, cy: number) => cx * 100_000 + cy;
  for (let i = 0; i < n; i++) {
    let [x0, y0, x1, y1] = [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
    for (let r = s.ringStart[i]; r < s.ringStart[i + 1]; r++)
      for (let p = s.pointStart[r]; p < s.pointStart[r + 1]; p++) {
        x0 = Math.min(x0, s.xs[p]);
        x1 = Math.max(x1, s.xs[p]);
        y0 = Math.min(y0, s.ys[p]);
        y1 = Math.max(y1, s.ys[p]);
      }
    box.set([x0, y0, x1, y1], 4 * i);
    if (x0 > x1) continue;
    for (let cx = Math.floor(x0 / CELL); cx <= Math.floor(x1 / CELL); cx++)
      for (let cy = Math.floor(y0 / CELL); cy <= Math.floor(y1 / CELL); cy++) {
        const k = cell(cx, cy);
        const list = grid.get(k);
        if (list) list.push(i);
        else grid.set(k, [i]);
      }
  }
  const inside = (i: number, x: number, y: number) => {
    let c = false;
    for (let r = s.ringStart[i]; r < s.ringStart[i + 1]; r++) {
      const end = s.pointStart[r + 1];
      for (let j = s.pointStart[r], k = end - 1; j < end; k = j++) {
        const yj = s.ys[j];
        const yk = s.ys[k];
        if (yj > y !== yk > y && x < ((s.xs[k] - s.xs[j]) * (y - yj)) / (yk - yj) + s.xs[j]) c = !c;
      }
    }
    return c;
  };
  return (x, y) =>
    (grid.get(cell(Math.floor(x / CELL), Math.floor(y / CELL))) ?? [])
      .filter((i) => box[4 * i] <= x && x <= box[4 * i + 2] && box[4 * i + 1] <= y && y <= box[4 * i + 3] && inside(i, x, y))
      .map((i) => s.ids[i]);
}

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

type Drops = { duplicate: number; noPoint: number; outside: number; severalPolygons: number; kabupaten: number; kecamatan: number };

type Labelled = {
  school: School;
  kecamatan_id: string;
  kabupaten_id: string;
  provinsi_id: string;
  /** The written province's id when it is the point's (the 2022 Papua splits make it differ). */
  namedProvinsi: string | null;
};

async function build(mirror: string) {
  const { schools, commit } = readSchools(mirror);
  const { rows } = await buildSeed();
  const active = rows.filter((r) => r.isActive === 1);
  const byId = new Map(active.map((r) => [r.id, r]));
  const childrenOf = new Map<string, Row[]>();
  for (const r of active) if (r.parentId) childrenOf.set(r.parentId, [...(childrenOf.get(r.parentId) ?? []), r]);
  const strip = (s: string) => s.replace(KAB_PREFIX, "");
  const keysOf = (r: Row, bare = false) => [
    ...new Set([r.name, r.altName, ...r.aliases, ...r.former].map((s) => nameKey(bare ? strip(s) : s)).filter(Boolean)),
  ];
  const provinces: Candidate[] = active.filter((r) => r.level === "provinsi").map((r) => ({ id: r.id, keys: keysOf(r) }));
  const locate = polygonLocator(await readShapes(join(seedDir, "sources", "wilayah-boundaries-kecamatan.csv.gz")));

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
function buildRaw(rawMirror: string): { commit: string; rows: number; sampled: number } | null {
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

function readme(w: Awaited<ReturnType<typeof build>>, raw: ReturnType<typeof buildRaw>, licence: string): string {
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
- \`${HARD_HELDOUT}\`: the harder variant of the held-out set (${w.hard.cases} cases), which keeps the schools whose written
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

async function main() {
  const args = process.argv.slice(2);
  const opt = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
  const mirror = opt("--mirror", DEFAULT_MIRROR);
  const w = await build(mirror);
  const raw = buildRaw(opt("--raw-mirror", DEFAULT_RAW_MIRROR));
  const gitDir = gitDirOf(mirror);
  const licence = gitDir ? git(gitDir, ["show", "HEAD:LICENSE"]) : readFileSync(join(mirror, "LICENSE"), "utf8");
  writeFileSync(join(FIXTURES, "address-world.README.md"), readme(w, raw, licence));
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
