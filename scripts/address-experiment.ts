/**
 * A prototype of the address resolver (docs/address-method.md) run on the real seed, to measure what
 * the method reaches before it becomes a service: the parser (src/wilayah/addresses/parse.ts), the
 * readings, one SQL statement per batch of 100 addresses over the search index (node:sqlite on the
 * database bench/search-sql.ts builds, .wrangler/search-sql.db), and the scoring below.
 *
 *   node scripts/boot.mjs node scripts/address-experiment.ts            rates per style of both sets
 *   node scripts/boot.mjs node scripts/address-experiment.ts --misses   and every wrong answer (--warnings: every unexpected warning)
 *   node scripts/boot.mjs node scripts/address-experiment.ts --bench    SQL time as the median of 7 runs per statement
 *   node scripts/boot.mjs node scripts/address-experiment.ts --stress   the confidence on villages written alone or with the province only
 *   node scripts/boot.mjs node scripts/address-experiment.ts --set FILE another set (address-set.ts --seed N --out FILE)
 *   node scripts/boot.mjs node scripts/address-experiment.ts "Braga, Bandung 40111" ...   these addresses, explained
 *
 * Not a service: no HTTP, no D1, the search vocabulary is bundled with esbuild as in the bench.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { LEVELS, type Level } from "../src/wilayah/codes.ts";
import { type ParsedAddress, parseAddress } from "../src/wilayah/addresses/parse.ts";
import { normalizeSearchText, TERM_SEPARATOR } from "../src/wilayah/normalize.ts";
import { editDistance, maxEdits } from "../src/wilayah/search-plan.ts";
import type { AddressCase, RealAddress } from "./address-set.ts";
import { root } from "./lib.ts";

// ---------------------------------------------------------------- the data the resolver reads

/** A region as the lookup returns it (wilayah_search + the village's postal code). */
export type RegionHit = { id: string; level: Level; name: string; altName: string; parent: string | null; postal: string | null };

/** What one batch statement answers: regions by exact normalised term, villages by postal code. */
export type LookupResult = { byTerm: Map<string, RegionHit[]>; byPostal: Map<string, RegionHit[]> };

/** What the isolate knows without SQL: the search vocabulary (seed/vocabulary.json). */
export type Words = { has(w: string): boolean; similar(w: string, edits: number): { w: string; n: number }[] };

// ---------------------------------------------------------------- readings

/** A phrase of a segment that may name a region: words [from, to) of segment `seg`. */
export type Reading = {
  seg: number;
  from: number;
  to: number;
  /** Normalised, as the index holds terms. */
  phrase: string;
  /** The level the segment's marker says (only on spans starting at the marker). */
  hint?: Level;
  /** The kind written before a bare name (`Kab. Bandung` read as `bandung`): the other kind fits at a cost. */
  kind?: "kota" | "kabupaten";
  /** A dusun or kampung's name read as a region: it names something below a village, at a cost. */
  below?: boolean;
  corrections: { typed: string; matched: string }[];
};

const MAX_SPAN = 6;
/** Words of a segment read (a longer run without commas or level words is not an address part). */
const MAX_SEGMENT_WORDS = 16;
const CORRECTIONS_PER_WORD = 4;

/** How a hamlet or level word is written in a name (`Kp. Melayu` is `Kampung Melayu`). */
const WORD_IN_NAME: Record<string, string> = { kp: "kampung", kmp: "kampung", dk: "dukuh", ds: "desa", dsn: "dusun", kel: "kelurahan", lingk: "lingkungan", kab: "kabupaten", kec: "kecamatan" };

export function readingsOf(parsed: ParsedAddress, words: Words): Reading[] {
  const out: Reading[] = [];
  parsed.regions.forEach((s, seg) => {
    const w = s.words.slice(0, MAX_SEGMENT_WORDS);
    // Typo candidates of words no indexed name holds (letters only, 4+: as search).
    const fixes = w.map((x) => {
      if (!/^[a-z]{4,}$/.test(x) || words.has(x)) return [];
      const k = maxEdits(x.length);
      return words
        .similar(x, k)
        .map((c) => ({ w: c.w, n: c.n, d: editDistance(x, c.w) }))
        .filter((c) => c.d > 0 && c.d <= k)
        .sort((a, b) => a.d - b.d || b.n - a.n)
        .slice(0, CORRECTIONS_PER_WORD);
    });
    for (let from = 0; from < w.length; from++) {
      for (let to = from + 1; to <= Math.min(w.length, from + MAX_SPAN); to++) {
        // Every spelling of the span: as written, and with each typo'd word corrected (one word at a time).
        const variants: { words: string[]; corrections: Reading["corrections"] }[] = [{ words: w.slice(from, to), corrections: [] }];
        // As spelled, punctuation kept (`Sei. Pudak`, `Pa' Tera`, `Kassi - Kassi`, `Ps.Baru`).
        const spelled = normalizeSearchText(s.text.slice(s.at[from][0], s.at[to - 1][1]));
        if (spelled !== variants[0].words.join(" ")) variants.push({ words: [spelled], corrections: [] });
        for (let i = from; i < to; i++) {
          for (const f of fixes[i]) {
            const ws = w.slice(from, to);
            ws[i - from] = f.w;
            variants.push({ words: ws, corrections: [{ typed: w[i], matched: f.w }] });
          }
        }
        for (const v of variants) {
          const phrase = v.words.join(" ");
          const hamlet = s.marker === "kampung" || s.marker === "dusun";
          const base = { seg, from, to, corrections: v.corrections, ...(hamlet ? { below: true } : {}) };
          if (from === 0 && s.marker) {
            const m = s.marker;
            if (m === "kota" || m === "kotamadya") out.push({ ...base, phrase: `kota ${phrase}`, hint: "kabupaten" });
            if (m === "kab") out.push({ ...base, phrase: `kabupaten ${phrase}`, hint: "kabupaten" });
            const kind = m === "kab" ? "kabupaten" : m === "kota" || m === "kotamadya" ? "kota" : undefined;
            out.push({ ...base, phrase, ...(s.level ? { hint: s.level } : {}), ...(kind ? { kind } : {}) });
            // The level word may be the name's own (`Desa Baru`, `Kota Baru`, `Kampung Melayu`).
            const raw = normalizeSearchText(s.raw).split(" ")[0].replace(/[.:]+$/, "");
            const own = WORD_IN_NAME[raw] ?? raw;
            if (/^[a-z]+$/.test(own)) out.push({ seg, from, to, corrections: v.corrections, phrase: `${own} ${phrase}` });
          } else out.push({ ...base, phrase });
        }
      }
    }
    // `Bandung Kota`, `Bandung Kab.`: the level word after the name, read as its prefix too.
    const last = w[w.length - 1];
    const prefix = last === "kota" ? "kota" : last === "kab" || last === "kabupaten" ? "kabupaten" : null;
    if (prefix && w.length >= 2) {
      for (let from = Math.max(0, w.length - 1 - MAX_SPAN); from < w.length - 1; from++) {
        out.push({ seg, from, to: w.length, phrase: `${prefix} ${w.slice(from, -1).join(" ")}`, hint: "kabupaten", corrections: [] });
      }
    }
  });
  return out;
}

// ---------------------------------------------------------------- scoring

/** Weights of the evidence (docs/address-method.md, "Scoring"); tuned on the generated set. */
export const W = {
  /** Per word of the text a match explains. */
  word: 1.5,
  /** Once per level of the candidate's chain that the text names. */
  level: { provinsi: 1, kabupaten: 2.5, kecamatan: 2.5, kelurahan: 3 } as Record<Level, number>,
  /** A level word that says another level (`Kec. X` read as a village). */
  hintMismatch: 3.5,
  /** `Kab. X` read as Kota X, or `Kota X` as Kabupaten X. */
  kabAsKota: 0.5,
  /** Per edit of a corrected typo. */
  correction: 1,
  /** A village named by a former spelling. */
  alias: 0.5,
  postalMatch: 3,
  postalNear: 1,
  postalMismatch: 2,
  /** Softmax temperature and the score of "none of these" (calibration). */
  temperature: 1,
  none: 2,
  ambiguousWithin: 1,
  /** Village candidates that get the typo comparison against their chain's names. */
  localTop: 15,
};

/** A region of a candidate's chain explaining words [from, to) of segment `seg`. */
type Match = { seg: number; from: number; to: number; phrase: string; hit: RegionHit; level: Level; value: number; fuzzy: boolean; alias: boolean; local: boolean; kindMismatch?: boolean };

export type Candidate = {
  hit: RegionHit;
  score: number;
  used: Match[];
  postal: "match" | "near" | "mismatch" | null;
  kabInconsistent: boolean;
};

export type Resolution = {
  input: string;
  parsed: ParsedAddress;
  top: Candidate | null;
  confidence: number;
  alternatives: { id: string; name: string; confidence: number }[];
  warnings: string[];
  level: Level | null;
  candidates: Candidate[];
  /** Words of region segments the answer does not explain. */
  unexplained: number;
  /** What matched which level of the answer: the text as written, the phrase read, how. */
  matched: Partial<Record<Level, { written: string; read: string; corrected: boolean; former: boolean }>>;
};

const chainOf = (id: string) => {
  const p = id.split(".");
  return p.map((_, i) => p.slice(0, i + 1).join("."));
};
const LEVEL_BIT: Record<Level, number> = { provinsi: 1, kabupaten: 2, kecamatan: 4, kelurahan: 8 };
const KIND_PREFIX = /^(kabupaten administrasi|kota administrasi|kabupaten|kota) /;

/** The names of a village's chain: its own, then its parents' from wilayah_search.parent. */
function chainNames(hit: RegionHit): { level: Level; id: string; names: string[] }[] {
  const own = { level: hit.level, id: hit.id, names: [...new Set([normalizeSearchText(hit.name), normalizeSearchText(hit.altName)])] };
  if (!hit.parent) return [own];
  const ids = chainOf(hit.id).slice(0, -1).reverse(); // nearest first, as `parent` lists them
  return [
    own,
    ...hit.parent.split(", ").map((n, i) => {
      const norm = normalizeSearchText(n);
      return { level: LEVELS[ids[i].split(".").length - 1], id: ids[i], names: [...new Set([norm, norm.replace(KIND_PREFIX, "")])] };
    }),
  ];
}

function exactMatch(r: Reading, hit: RegionHit): Match {
  let value = W.word * (r.to - r.from) - W.correction * r.corrections.length;
  if ((r.hint && r.hint !== hit.level) || r.below) value -= W.hintMismatch;
  const kindMismatch = !!r.kind && hit.level === "kabupaten" && (hit.name.startsWith("Kota") ? "kota" : "kabupaten") !== r.kind;
  if (kindMismatch) value -= W.kabAsKota;
  const own = [hit.name, hit.altName].map(normalizeSearchText);
  const bare = r.phrase.replace(/^(kota|kabupaten) /, "");
  const alias = !own.includes(r.phrase) && !own.some((o) => o.replace(KIND_PREFIX, "") === bare);
  if (alias && hit.level === "kelurahan") value -= W.alias;
  return { seg: r.seg, from: r.from, to: r.to, phrase: r.phrase, hit, level: hit.level, value, fuzzy: r.corrections.length > 0, alias, local: false, kindMismatch };
}

/** Spans compared for typos, their distinct phrases numbered (distances are kept per phrase and name). */
type Spans = { list: (Reading & { pi: number })[]; phrases: string[] };

function typoSpans(readings: Reading[]): Spans {
  const phrases: string[] = [];
  const index = new Map<string, number>();
  const seen = new Set<string>();
  const list: Spans["list"] = [];
  // As written (no corrected variants), 1-4 words, 4+ characters.
  for (const r of readings) {
    if (r.corrections.length || r.to - r.from > 4 || r.phrase.length < 4) continue;
    const k = `${r.seg}|${r.from}|${r.to}|${r.phrase}|${r.hint ?? ""}|${r.below ? 1 : 0}`;
    if (seen.has(k)) continue;
    seen.add(k);
    let pi = index.get(r.phrase);
    if (pi === undefined) {
      pi = phrases.push(r.phrase) - 1;
      index.set(r.phrase, pi);
    }
    list.push({ ...r, pi });
  }
  return { list, phrases };
}

const chainNameCache = new Map<string, { level: Level; id: string; names: string[] }[]>();

/**
 * Spans within the typo distance of a name of the village's chain (no lookup: the names come with
 * the village). `memo` is per address: candidates share their parents, whose matches are computed once.
 */
function localMatches(hit: RegionHit, spans: Spans, memo: Map<string, Match[]>): Match[] {
  let chain = chainNameCache.get(hit.id);
  if (!chain) {
    chain = chainNames(hit);
    if (chainNameCache.size > 50_000) chainNameCache.clear();
    chainNameCache.set(hit.id, chain);
  }
  const out: Match[] = [];
  for (const t of chain) {
    let ms = memo.get(t.id);
    if (!ms) {
      ms = memberMatches(hit, t, spans);
      memo.set(t.id, ms);
    }
    out.push(...ms);
  }
  return out;
}

function memberMatches(hit: RegionHit, t: { level: Level; id: string; names: string[] }, spans: Spans): Match[] {
  const out: Match[] = [];
  const region: RegionHit = t.id === hit.id ? hit : { ...hit, id: t.id, level: t.level, name: t.names[0], altName: t.names[0], parent: null, postal: null };
  {
    for (const name of t.names) {
      const bareLength = name.replace(KIND_PREFIX, "").length;
      if (bareLength < 4) continue;
      const limit = Math.min(2, maxEdits(bareLength));
      const known = new Int8Array(spans.phrases.length).fill(-1);
      for (const r of spans.list) {
        if (Math.abs(name.length - r.phrase.length) > limit) continue;
        let d = known[r.pi];
        if (d < 0) {
          d = Math.min(100, editDistance(r.phrase, name));
          known[r.pi] = d;
        }
        if (d === 0 || d > limit) continue;
        let value = W.word * (r.to - r.from) - W.correction * d;
        if ((r.hint && r.hint !== t.level) || r.below) value -= W.hintMismatch;
        out.push({ seg: r.seg, from: r.from, to: r.to, phrase: r.phrase, hit: region, level: t.level, value, fuzzy: true, alias: false, local: true });
      }
    }
  }
  return out;
}

/**
 * The best cover of the text by a candidate's chain: non-overlapping matches inside each segment,
 * each level's weight counted once (dynamic programming over word positions x levels used). A
 * village candidate must use its own name.
 */
function cover(segLengths: number[], matches: Match[], mustUse: number): { value: number; used: Match[] } | null {
  const offsets: number[] = [];
  let n = 0;
  for (const l of segLengths) {
    offsets.push(n);
    n += l;
  }
  const byStart: Match[][] = Array.from({ length: n }, () => []);
  for (const m of matches) byStart[offsets[m.seg] + m.from].push(m);
  const best = Array.from({ length: n + 1 }, () => new Float64Array(16).fill(Number.NEGATIVE_INFINITY));
  const back: ({ p: number; mask: number; m: Match | null } | undefined)[][] = Array.from({ length: n + 1 }, () => new Array(16));
  best[0][0] = 0;
  for (let p = 0; p < n; p++) {
    for (let mask = 0; mask < 16; mask++) {
      const v = best[p][mask];
      if (v === Number.NEGATIVE_INFINITY) continue;
      if (v > best[p + 1][mask]) {
        best[p + 1][mask] = v;
        back[p + 1][mask] = { p, mask, m: null };
      }
      for (const m of byStart[p]) {
        const end = offsets[m.seg] + m.to;
        const nm = mask | LEVEL_BIT[m.level];
        if (v + m.value > best[end][nm]) {
          best[end][nm] = v + m.value;
          back[end][nm] = { p, mask, m };
        }
      }
    }
  }
  let top: { value: number; mask: number } | null = null;
  for (let mask = 0; mask < 16; mask++) {
    if ((mask & mustUse) !== mustUse || best[n][mask] === Number.NEGATIVE_INFINITY) continue;
    let value = best[n][mask];
    for (const l of LEVELS) if (mask & LEVEL_BIT[l]) value += W.level[l];
    if (!top || value > top.value) top = { value, mask };
  }
  if (!top) return null;
  const used: Match[] = [];
  for (let p = n, mask = top.mask; p > 0; ) {
    const b = back[p][mask]!;
    if (b.m) used.push(b.m);
    p = b.p;
    mask = b.mask;
  }
  return { value: top.value, used: used.reverse() };
}

/**
 * Scores every candidate region (docs/address-method.md): every region an exact reading names, the
 * villages of the postal code, and `extra` villages (round 2: the villages of the best kecamatan).
 */
export function resolve(input: string, parsed: ParsedAddress, readings: Reading[], found: LookupResult, extra: RegionHit[] = []): Resolution {
  const byRegion = new Map<string, Match[]>();
  const hits = new Map<string, RegionHit>();
  for (const r of readings) {
    for (const hit of found.byTerm.get(r.phrase) ?? []) {
      const m = exactMatch(r, hit);
      const list = byRegion.get(hit.id);
      if (list) list.push(m);
      else byRegion.set(hit.id, [m]);
      hits.set(hit.id, hit);
    }
  }
  const postal = parsed.components.postal_code;
  const postalVillages = postal ? (found.byPostal.get(postal) ?? []) : [];
  const postalIds = new Set(postalVillages.map((v) => v.id));
  const postalKecs = new Set(postalVillages.map((v) => v.id.slice(0, 8)));
  const localOnly = new Map<string, RegionHit>();
  for (const v of [...postalVillages, ...extra]) if (!hits.has(v.id)) localOnly.set(v.id, v);

  const segLengths = parsed.regions.map((s) => s.words.length);
  const kabSegs = parsed.regions.flatMap((s, i) => (s.level === "kabupaten" ? [i] : []));

  const score = (hit: RegionHit, local: Match[]): Candidate | null => {
    const matches = [...chainOf(hit.id).flatMap((id) => byRegion.get(id) ?? []), ...local];
    const c = cover(segLengths, matches, hit.level === "kelurahan" ? LEVEL_BIT.kelurahan : 0);
    if (!c) return null;
    let total = c.value;
    let postalState: Candidate["postal"] = null;
    if (postal) {
      if (hit.level === "kelurahan") postalState = postalIds.has(hit.id) ? "match" : postalKecs.has(hit.id.slice(0, 8)) ? "near" : "mismatch";
      else postalState = postalVillages.some((v) => v.id.startsWith(`${hit.id}.`)) ? "near" : "mismatch";
      total += postalState === "match" ? W.postalMatch : postalState === "near" ? W.postalNear : -W.postalMismatch;
    }
    // A kabupaten the text names with its level word that this chain does not explain, or not of its kind.
    const kabInconsistent = kabSegs.some((i) => !c.used.some((m) => m.seg === i)) || c.used.some((m) => m.kindMismatch);
    return { hit, score: total, used: c.used, postal: postalState, kabInconsistent };
  };

  const scored = new Map<string, Candidate>();
  for (const hit of hits.values()) {
    const c = score(hit, []);
    if (c) scored.set(hit.id, c);
  }
  // Typos the vocabulary could not correct: the best villages, and those of the postal code or of
  // round 2, compared against their chain's names.
  // Only when the best exact reading leaves words unexplained: most addresses need no comparison.
  const wordCount = segLengths.reduce((a, b) => a + b, 0);
  const first = [...scored.values()].reduce<Candidate | null>((a, c) => (!a || c.score > a.score ? c : a), null);
  const explained = first ? first.used.reduce((a, m) => a + m.to - m.from, 0) : 0;
  const villages = explained < wordCount ? [...scored.values()].filter((c) => c.hit.level === "kelurahan").sort((a, b) => b.score - a.score) : [];
  const again = explained < wordCount ? [...villages.slice(0, W.localTop).map((c) => c.hit), ...localOnly.values()] : [];
  const spans = typoSpans(readings);
  const memo = new Map<string, Match[]>();
  for (const hit of again) {
    const local = localMatches(hit, spans, memo);
    if (!local.length) continue;
    const c = score(hit, local);
    if (c && c.score > (scored.get(hit.id)?.score ?? Number.NEGATIVE_INFINITY)) scored.set(hit.id, c);
  }

  const ranked = [...scored.values()].sort((a, b) => b.score - a.score || LEVELS.indexOf(b.hit.level) - LEVELS.indexOf(a.hit.level) || (a.hit.id < b.hit.id ? -1 : 1));
  const top = ranked[0] ?? null;
  const words = segLengths.reduce((a, b) => a + b, 0);
  if (!top) return { input, parsed, top: null, confidence: 0, alternatives: [], warnings: [], level: null, candidates: [], unexplained: words, matched: {} };
  // Competing explanations: not the answer's own ancestors (a worse reading of the same place).
  const topChain = new Set(chainOf(top.hit.id));
  const rivals = ranked.slice(1).filter((c) => !topChain.has(c.hit.id));
  const exp = (x: number) => Math.exp((x - top.score) / W.temperature);
  const total = 1 + rivals.reduce((a, c) => a + exp(c.score), 0) + exp(W.none);
  // Up to 3 other villages, those the scores leave some chance (1% or more).
  const alternatives = rivals
    .filter((c) => c.hit.level === "kelurahan")
    .slice(0, 3)
    .map((c) => ({ id: c.hit.id, name: c.hit.name, confidence: exp(c.score) / total }))
    .filter((a) => a.confidence >= 0.01);
  const warnings: string[] = [];
  if (top.postal === "mismatch" || top.postal === "near") warnings.push("postal_code_mismatch");
  if (rivals[0] && top.score - rivals[0].score < W.ambiguousWithin) warnings.push("ambiguous");
  if (top.used.some((m) => m.fuzzy)) warnings.push("typo_corrected");
  if (top.used.some((m) => m.alias && m.level === "kelurahan")) warnings.push("former_name");
  if (top.kabInconsistent) warnings.push("kabupaten_inconsistent");
  const unexplained = words - top.used.reduce((a, m) => a + m.to - m.from, 0);
  const matched: Resolution["matched"] = {};
  for (const m of top.used) {
    const seg = parsed.regions[m.seg];
    matched[m.level] ??= { written: seg.text.slice(seg.at[m.from][0], seg.at[m.to - 1][1]), read: m.phrase, corrected: m.fuzzy, former: m.alias && m.level === "kelurahan" };
  }
  return { input, parsed, top, confidence: 1 / total, alternatives, warnings, level: top.hit.level, candidates: ranked, unexplained, matched };
}

// ---------------------------------------------------------------- SQL (node:sqlite standing in for D1)

const DB_FILE = join(root, ".wrangler", "search-sql.db");
const SEED = join(root, "seed", "wilayah.sql");

function prepareDb() {
  if (existsSync(DB_FILE) && statSync(DB_FILE).mtimeMs > statSync(SEED).mtimeMs) return;
  mkdirSync(join(root, ".wrangler"), { recursive: true });
  rmSync(DB_FILE, { force: true });
  const db = new DatabaseSync(DB_FILE);
  for (const f of readdirSync(join(root, "migrations")).filter((f) => f.endsWith(".sql")).sort()) db.exec(readFileSync(join(root, "migrations", f), "utf8"));
  for (const statement of readFileSync(SEED, "utf8").split("\n")) if (statement.trim() && !statement.startsWith("--")) db.exec(statement);
  db.close();
}

const str = (v: string) => `'${v.replaceAll("'", "''")}'`;

/**
 * The one statement of a batch: every distinct phrase of every address as an exact term (the
 * suffix index's `s = phrase || U+001F AND k = 0`: a point lookup each), and every postal code's
 * villages, with what the scoring needs of each region.
 */
export function batchSql(phrases: string[], postals: string[]): string {
  const parts: string[] = [];
  if (phrases.length) {
    parts.push(`SELECT substr(g.s, 1, length(g.s) - 1) AS q, 0 AS kind, w.id, w.level, w.name, w.alt_name, w.parent, k.postal_code AS postal
      FROM wilayah_grams g JOIN wilayah_search w ON w.ord = g.r LEFT JOIN kelurahan k ON k.id = w.id AND w.level = 4
      WHERE g.s IN (${phrases.map((p) => str(p + TERM_SEPARATOR)).join(",")}) AND g.k = 0 AND g.is_active = 1`);
  }
  if (postals.length) {
    parts.push(`SELECT p.postal AS q, 1 AS kind, w.id, w.level, w.name, w.alt_name, w.parent, p.postal AS postal
      FROM wilayah_postal p JOIN wilayah_search w ON w.ord = p.r WHERE p.postal IN (${postals.map(str).join(",")}) AND w.is_active = 1`);
  }
  return parts.join(" UNION ALL ");
}

type Row = { q: string; kind: number; id: string; level: number; name: string; alt_name: string; parent: string | null; postal: string | null };

function toLookup(rows: Row[]): LookupResult {
  const byTerm = new Map<string, RegionHit[]>();
  const byPostal = new Map<string, RegionHit[]>();
  for (const r of rows) {
    const hit: RegionHit = { id: r.id, level: LEVELS[r.level - 1], name: r.name, altName: r.alt_name, parent: r.parent, postal: r.postal };
    const m = r.kind === 0 ? byTerm : byPostal; // kind 1 (postal) and 2 (round 2 areas) by their key
    m.set(r.q, [...(m.get(r.q) ?? []), hit]);
  }
  return { byTerm, byPostal };
}

async function loadWords(): Promise<Words> {
  const out = join(root, ".wrangler", "address-vocabulary.mjs");
  await build({ entryPoints: [join(root, "src", "wilayah", "vocabulary.ts")], bundle: true, platform: "node", format: "esm", outfile: out, logLevel: "warning" });
  const mod = (await import(pathToFileURL(out).href)) as typeof import("../src/wilayah/vocabulary.ts");
  const vocab = mod.vocabulary();
  const text = (JSON.parse(readFileSync(join(root, "seed", "vocabulary.json"), "utf8")) as { text: string }).text;
  const all = new Set(mod.parseVocabulary(text).map((r) => r.w));
  return { has: (w) => all.has(w), similar: (w, k) => vocab.similarWords(w, k) };
}

export const BATCH = 100;

/**
 * Round 2: the villages of these kecamatan/kabupaten ids, a range of the id index each. The areas
 * are a VALUES list, not a UNION ALL per area: D1 allows few terms per compound SELECT, and SQLite
 * does not count VALUES rows as such terms.
 */
export function villagesSql(areas: string[]): string {
  return `WITH areas(a) AS (VALUES ${areas.map((a) => `(${str(a)})`).join(",")})
    SELECT areas.a AS q, 2 AS kind, w.id, w.level, w.name, w.alt_name, w.parent, k.postal_code AS postal
    FROM areas JOIN wilayah_search w ON w.id > areas.a || '.' AND w.id < areas.a || '/' JOIN kelurahan k ON k.id = w.id
    WHERE w.level = 4 AND w.is_active = 1`;
}

/**
 * Resolves addresses in batches of BATCH: one statement for every batch, and a second one for the
 * addresses whose best answer is a kecamatan or kabupaten with words left unexplained (a village
 * name the vocabulary could not correct): the villages of that area, compared in the isolate.
 */
export async function resolveAll(texts: string[], db: DatabaseSync, words: Words) {
  const out: Resolution[] = [];
  const stats = { statements: 0, round2: 0, rows: 0, sqlMs: 0, jsMs: 0, phrases: 0, maxSqlBytes: 0 };
  const repeat = process.argv.includes("--bench") ? 7 : 1;
  const run = (sql: string) => {
    // --bench: each statement run 7 times, the median counted (the machine is shared; first runs are cold).
    const times: number[] = [];
    let rows: Row[] = [];
    for (let k = 0; k < repeat; k++) {
      const t = performance.now();
      rows = db.prepare(sql).all() as Row[];
      times.push(performance.now() - t);
    }
    stats.sqlMs += times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
    stats.statements++;
    stats.rows += rows.length;
    stats.maxSqlBytes = Math.max(stats.maxSqlBytes, Buffer.byteLength(sql));
    return rows;
  };
  for (let i = 0; i < texts.length; i += BATCH) {
    const t0 = performance.now();
    const batch = texts.slice(i, i + BATCH).map((text) => {
      const parsed = parseAddress(text);
      return { text, parsed, readings: readingsOf(parsed, words) };
    });
    const phrases = [...new Set(batch.flatMap((b) => b.readings.map((r) => r.phrase)))];
    const postals = [...new Set(batch.map((b) => b.parsed.components.postal_code).filter((p): p is string => p !== null))];
    stats.phrases += phrases.length;
    const sql = batchSql(phrases, postals);
    let js = performance.now() - t0;
    const rows = sql ? run(sql) : [];
    const t1 = performance.now();
    const found = toLookup(rows);
    const results = batch.map((b) => resolve(b.text, b.parsed, b.readings, found));
    const areaOf = (r: Resolution) => {
      const top = r.top;
      if (!top || top.hit.level === "provinsi" || r.unexplained === 0) return null;
      if (top.hit.level !== "kelurahan") return top.hit.id;
      // A village answer with a whole village-like segment unexplained: its kecamatan's villages.
      const silent = r.parsed.regions.some((s, i) => (s.level === null || s.level === "kelurahan") && !top.used.some((m) => m.seg === i));
      return silent ? top.hit.id.slice(0, 8) : null;
    };
    const areas = [...new Set(results.map(areaOf).filter((a): a is string => a !== null))];
    js += performance.now() - t1;
    if (areas.length) {
      const more = toLookup(run(villagesSql(areas))).byPostal; // keyed by area (q)
      stats.round2++;
      const t2 = performance.now();
      results.forEach((r, k) => {
        const area = areaOf(r);
        if (area) results[k] = resolve(batch[k].text, batch[k].parsed, batch[k].readings, found, more.get(area) ?? []);
      });
      js += performance.now() - t2;
    }
    out.push(...results);
    stats.jsMs += js;
  }
  return { out, stats };
}

// ---------------------------------------------------------------- report

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : "-");

function explain(r: Resolution) {
  console.log(`\n${JSON.stringify(r.input)}`);
  console.log("  regions:", r.parsed.regions.map((s) => `${s.marker ?? "-"}:${s.words.join(" ")}`).join(" | "), " components:", JSON.stringify(Object.fromEntries(Object.entries(r.parsed.components).filter(([, v]) => v !== null))));
  for (const c of r.candidates.slice(0, 5)) {
    console.log(`  ${c.score.toFixed(2).padStart(6)} ${c.hit.id} ${c.hit.name} (${c.hit.level}) postal=${c.postal} used: ${c.used.map((m) => `${m.phrase}->${m.level}${m.fuzzy ? "~" : ""}${m.alias ? "*" : ""}(${m.value.toFixed(1)})`).join(", ")}`);
  }
  console.log(`  => ${r.top?.hit.id ?? "-"} level=${r.level} confidence=${r.confidence.toFixed(3)} warnings=${r.warnings.join(",")} alternatives=${r.alternatives.map((a) => `${a.id}:${a.confidence.toFixed(2)}`).join(" ")}`);
  console.log(`     matched: ${JSON.stringify(r.matched)}`);
}

async function main() {
  // Weight experiments: ADDRESS_WEIGHTS='{"word":1.5}' overrides W for one run.
  if (process.env.ADDRESS_WEIGHTS) Object.assign(W, JSON.parse(process.env.ADDRESS_WEIGHTS));
  prepareDb();
  const db = new DatabaseSync(DB_FILE, { readOnly: true });
  const words = await loadWords();
  const args = process.argv.slice(2).filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--set");
  if (args.length) {
    const { out } = await resolveAll(args, db, words);
    for (const r of out) explain(r);
    return;
  }
  if (process.argv.includes("--stress")) return stress(db, words);
  const setArg = process.argv.indexOf("--set");
  const setFile = setArg > 0 ? process.argv[setArg + 1] : join(root, "test", "fixtures", "address-set.json");
  const set = JSON.parse(readFileSync(setFile, "utf8")) as AddressCase[];
  const real = JSON.parse(readFileSync(join(root, "test", "fixtures", "address-real.json"), "utf8")) as RealAddress[];
  const started = performance.now();
  const { out, stats } = await resolveAll(set.map((c) => c.text), db, words);
  const wall = performance.now() - started;
  const styles = new Map<string, { n: number; ok: number; det: number; detOk: number; kab: number; kabOk: number; top3: number; warn: number; warnOk: number }>();
  const falseWarnings = new Map<string, number>();
  const WARNINGS = ["typo_corrected", "former_name", "postal_code_mismatch", "kabupaten_inconsistent"];
  const calib = { hi: 0, hiOk: 0, mid: 0, midOk: 0, lo: 0, loOk: 0, loAlt: 0, loWrong: 0, loWrongAlt: 0 };
  const misses: { c: AddressCase; r: Resolution }[] = [];
  out.forEach((r, i) => {
    const c = set[i];
    const s = styles.get(c.style) ?? { n: 0, ok: 0, det: 0, detOk: 0, kab: 0, kabOk: 0, top3: 0, warn: 0, warnOk: 0 };
    if (c.warnings?.length) {
      s.warn++;
      if (c.warnings.every((w) => r.warnings.includes(w))) s.warnOk++;
    }
    for (const w of WARNINGS) {
      if (r.warnings.includes(w) && !c.warnings?.includes(w)) {
        falseWarnings.set(w, (falseWarnings.get(w) ?? 0) + 1);
        if (process.argv.includes("--warnings")) misses.push({ c: { ...c, note: `${c.note ?? ""} unexpected ${w}` }, r });
      }
    }
    const ok = r.top?.hit.id === c.kelurahan_id;
    s.n++;
    if (ok) s.ok++;
    if (c.determined) {
      s.det++;
      if (ok) s.detOk++;
      else misses.push({ c, r });
    }
    if (c.names_kabupaten) {
      s.kab++;
      if (r.top && r.top.hit.id.startsWith(c.kabupaten_id)) s.kabOk++;
    }
    if (ok || r.alternatives.some((a) => a.id === c.kelurahan_id)) s.top3++;
    styles.set(c.style, s);
    if (r.confidence >= 0.9) {
      calib.hi++;
      if (ok) calib.hiOk++;
    } else if (r.confidence >= 0.5) {
      calib.mid++;
      if (ok) calib.midOk++;
    } else {
      calib.lo++;
      if (ok) calib.loOk++;
      if (ok || r.alternatives.some((a) => a.id === c.kelurahan_id)) calib.loAlt++;
      if (!ok) {
        calib.loWrong++;
        if (r.alternatives.some((a) => a.id === c.kelurahan_id)) calib.loWrongAlt++;
      }
    }
  });
  const batches = Math.ceil(set.length / BATCH);
  console.log(`address set: ${set.length} addresses in ${batches} batches of ${BATCH}: ${stats.statements} statements (${stats.round2} of them round 2), ${stats.rows} rows, ${stats.phrases} phrases, largest statement ${(stats.maxSqlBytes / 1024).toFixed(1)} KB`);
  console.log(`time: SQL ${stats.sqlMs.toFixed(0)} ms (${(stats.sqlMs / batches).toFixed(1)} ms per batch), JS ${stats.jsMs.toFixed(0)} ms (${(stats.jsMs / set.length).toFixed(2)} ms per address), wall ${wall.toFixed(0)} ms`);
  console.log(`${"style".padEnd(18)}${"n".padStart(5)}${"top".padStart(8)}${"determ.".padStart(9)}${"top|det".padStart(9)}${"kab".padStart(8)}${"in top4".padStart(9)}${"warning".padStart(9)}`);
  const all = { n: 0, det: 0, detOk: 0, kab: 0, kabOk: 0 };
  for (const [style, s] of styles) {
    console.log(`${style.padEnd(18)}${String(s.n).padStart(5)}${pct(s.ok, s.n).padStart(8)}${String(s.det).padStart(9)}${pct(s.detOk, s.det).padStart(9)}${pct(s.kabOk, s.kab).padStart(8)}${pct(s.top3, s.n).padStart(9)}${pct(s.warnOk, s.warn).padStart(9)}`);
    all.n += s.n;
    all.det += s.det;
    all.detOk += s.detOk;
    all.kab += s.kab;
    all.kabOk += s.kabOk;
  }
  console.log(`${"all".padEnd(18)}${String(all.n).padStart(5)}${"".padStart(8)}${String(all.det).padStart(9)}${pct(all.detOk, all.det).padStart(9)}${pct(all.kabOk, all.kab).padStart(8)}`);
  console.log(`warnings given where the entry expects none: ${WARNINGS.map((w) => `${w} ${falseWarnings.get(w) ?? 0}`).join(", ")} (of ${set.length})`);
  console.log(`calibration: confidence >= 0.9: ${calib.hi} answers, ${pct(calib.hiOk, calib.hi)} right; 0.5-0.9: ${calib.mid}, ${pct(calib.midOk, calib.mid)} right; < 0.5: ${calib.lo}, ${pct(calib.loOk, calib.lo)} right, right village among answer + alternatives ${pct(calib.loAlt, calib.lo)} (of the ${calib.loWrong} wrong ones, among the alternatives ${pct(calib.loWrongAlt, calib.loWrong)})`);

  console.log(reliability(out.map((r, i) => ({ confidence: r.confidence, ok: r.top?.hit.id === set[i].kelurahan_id }))));
  const { out: realOut } = await resolveAll(real.map((a) => a.text), db, words);
  let realOk = 0;
  realOut.forEach((r, i) => {
    const a = real[i];
    if (r.top?.hit.id === a.kelurahan_id) realOk++;
    else misses.push({ c: { style: "real", text: a.text, kelurahan_id: a.kelurahan_id, kabupaten_id: a.kabupaten_id, determined: true, names_kabupaten: true, note: a.name }, r });
  });
  console.log(`real addresses: ${realOk}/${real.length} right (${pct(realOk, real.length)})`);
  if (process.argv.includes("--misses") || process.argv.includes("--warnings")) {
    for (const { c, r } of misses) {
      console.log(`\n[${c.style}] expected ${c.kelurahan_id}${c.note ? ` (${c.note})` : ""}`);
      explain(r);
    }
  }
}

/** Reliability of the confidence: answers grouped by confidence, the share right in each group. */
function reliability(results: { confidence: number; ok: boolean }[]) {
  const bins = [0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0001];
  const rows: string[] = [];
  for (let i = 0; i + 1 < bins.length; i++) {
    const inBin = results.filter((r) => r.confidence >= bins[i] && r.confidence < bins[i + 1]);
    if (!inBin.length) continue;
    const mean = inBin.reduce((a, r) => a + r.confidence, 0) / inBin.length;
    rows.push(`  [${bins[i].toFixed(1)}, ${Math.min(1, bins[i + 1]).toFixed(1)}${i + 2 === bins.length ? "]" : ")"}: ${String(inBin.length).padStart(5)} answers, mean confidence ${mean.toFixed(2)}, right ${pct(inBin.filter((r) => r.ok).length, inBin.length)}`);
  }
  return rows.join("\n");
}

/**
 * `--stress`: the villages of the set's addresses written with less: the name alone, and the name
 * with its province. Many such texts fit several villages, so the answer is often wrong: what the
 * confidence says should then be low, as often as it is wrong.
 */
async function stress(db: DatabaseSync, words: Words) {
  const set = JSON.parse(readFileSync(join(root, "test", "fixtures", "address-set.json"), "utf8")) as AddressCase[];
  const ids = [...new Set(set.map((c) => c.kelurahan_id))];
  const info = db.prepare(`SELECT id, name, parent FROM wilayah_search WHERE id IN (${ids.map(str).join(",")}) AND level = 4`).all() as { id: string; name: string; parent: string }[];
  const cases = info.flatMap((v) => [
    { text: v.name, id: v.id },
    { text: `${v.name}, ${v.parent.split(", ").at(-1)}`, id: v.id },
  ]);
  const { out } = await resolveAll(cases.map((c) => c.text), db, words);
  const results = out.map((r, i) => ({ confidence: r.confidence, ok: r.top?.hit.id === cases[i].id, listed: r.top?.hit.id === cases[i].id || r.alternatives.some((a) => a.id === cases[i].id) }));
  console.log(`stress: ${cases.length} texts (village alone; village and province), right ${pct(results.filter((r) => r.ok).length, results.length)}`);
  console.log(reliability(results));
  const low = results.filter((r) => r.confidence < 0.5);
  console.log(`  below 0.5: right village among answer + alternatives ${pct(low.filter((r) => r.listed).length, low.length)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e: unknown) => {
    console.error(e instanceof Error ? e.stack : e);
    process.exit(1);
  });
}
