/**
 * The address resolver's quality on real-world addresses (issue's goals): the school addresses of
 * test/fixtures/address-world.json (development set) and address-world-heldout.json (held-out set,
 * never used to tune), labelled by the kecamatan polygon their coordinates fall in
 * (scripts/address-world.ts says how), and the coverage of raw, unlabelled addresses
 * (test/fixtures/address-raw.json). Pure (no Node API), so a Worker test can import it as well as
 * scripts/address-quality.ts (`--world`, `--heldout`, `--raw`).
 */
import { isAtOrBelow, parentAt } from "../src/wilayah/codes.ts";

/** One labelled case of the real-world sets. */
export type WorldCase = {
  /** The school's NPSN (national school id): the source record. */
  npsn: string;
  text: string;
  style: "with_province" | "without_province";
  /** The label: the Kemendagri kecamatan whose polygon holds the school's point, and its parents. */
  kecamatan_id: string;
  kabupaten_id: string;
  provinsi_id: string;
  /** What the text names unambiguously (the written province, with_province only, when it is the point's; the written kabupaten/kota). */
  named: { provinsi_id?: string; kabupaten_id: string };
  /** The written kecamatan name against the label's: equal, equal after expanding short forms, 1-2 edits, anything else. */
  kec_form: "exact" | "form" | "typo" | "other";
  /** The street part holds a village/hamlet word (Ds., Desa, Kel., Dusun, Kp. ...). */
  village_in_street: boolean;
  /** The harder variant only (scripts/address-world.ts HARD_HELDOUT): the written kecamatan is not the point's (the label's); absent when it is. */
  kec_agrees?: false;
};

/** What the rates read of an answer (the API's per-address answer). */
export type WorldAnswer = {
  kelurahan: { id: string } | null;
  kecamatan: { id: string } | null;
  kabupaten: { id: string } | null;
  provinsi: { id: string } | null;
  confidence: number;
  /** Other villages (a kecamatan id is a village id's first 8 characters). */
  alternatives: { id: string }[];
  warnings: string[];
};

/** The issue's goals on the real-world sets. */
export const WORLD_GOALS = {
  /** Kecamatan right as the answer, the text with its province. */
  kecamatanWithProvince: 0.97,
  /** Kecamatan right as the answer, the text without its province (issue 35: 94%; issue 52: 95%). */
  kecamatanWithoutProvince: 0.95,
  /** The right kecamatan the answer's or an alternative's, over all cases. */
  withinAlternatives: 0.99,
  /** Of the wrong answers, confidence below 0.5 or a warning given. */
  wrongFlagged: 0.95,
  /** Answers outside the province or kabupaten the text names. */
  outside: 0,
} as const;

/** Below this confidence an answer says it is unsure. */
export const LOW_CONFIDENCE = 0.5;

export type WorldGroup = {
  n: number;
  /** The answer's kecamatan is the label's. */
  right: number;
  /** The label's kecamatan is the answer's or an alternative's. */
  listed: number;
  wrong: number;
  /** Wrong answers with confidence < 0.5. */
  wrongLow: number;
  /** Wrong answers with confidence < 0.5 or any warning. */
  wrongFlagged: number;
  /** Answers outside the region the text names. */
  outside: number;
  /** Answers without a kecamatan. */
  noKecamatan: number;
  /** Answers without any region. */
  nothing: number;
};

export type WorldRates = {
  /** Keys: `all`, the styles, `kec_form:<form>`, `village_in_street:<yes|no>`, `written_kec:<label|other>` (the harder variant), in that order. */
  groups: Map<string, WorldGroup>;
  misses: { c: WorldCase; a: WorldAnswer }[];
};

const emptyGroup = (): WorldGroup => ({ n: 0, right: 0, listed: 0, wrong: 0, wrongLow: 0, wrongFlagged: 0, outside: 0, noKecamatan: 0, nothing: 0 });

/** The kecamatan id of a village (or kecamatan) id; null for a kabupaten or provinsi id. */
const kecamatanOf = (id: string): string | null => (isAtOrBelow(id, "kecamatan") ? parentAt(id, "kecamatan") : null);

/** The answer names a region other than the province or kabupaten the text names (a null kabupaten counts only by its province). */
export function isOutside(c: WorldCase, a: WorldAnswer): boolean {
  const namedProvinsi = c.named.provinsi_id ?? parentAt(c.named.kabupaten_id, "provinsi");
  if (c.named.provinsi_id && a.provinsi && a.provinsi.id !== c.named.provinsi_id) return true;
  if (a.kabupaten) return a.kabupaten.id !== c.named.kabupaten_id;
  return !!a.provinsi && a.provinsi.id !== namedProvinsi;
}

export function rateWorld(cases: WorldCase[], answers: WorldAnswer[]): WorldRates {
  const groups = new Map<string, WorldGroup>([["all", emptyGroup()]]);
  for (const style of ["with_province", "without_province"]) groups.set(style, emptyGroup());
  for (const form of ["exact", "form", "typo", "other"]) groups.set(`kec_form:${form}`, emptyGroup());
  for (const v of ["yes", "no"]) groups.set(`village_in_street:${v}`, emptyGroup());
  if (cases.some((c) => c.kec_agrees === false)) for (const v of ["label", "other"]) groups.set(`written_kec:${v}`, emptyGroup());
  const misses: WorldRates["misses"] = [];
  cases.forEach((c, i) => {
    const a = answers[i];
    const right = a.kecamatan?.id === c.kecamatan_id;
    const listed = right || a.alternatives.some((x) => kecamatanOf(x.id) === c.kecamatan_id);
    const low = a.confidence < LOW_CONFIDENCE;
    const outside = isOutside(c, a);
    const keys = ["all", c.style, `kec_form:${c.kec_form}`, `village_in_street:${c.village_in_street ? "yes" : "no"}`];
    if (groups.has("written_kec:other")) keys.push(`written_kec:${c.kec_agrees === false ? "other" : "label"}`);
    for (const key of keys) {
      const g = groups.get(key) ?? emptyGroup();
      g.n++;
      if (right) g.right++;
      if (listed) g.listed++;
      if (!right) {
        g.wrong++;
        if (low) g.wrongLow++;
        if (low || a.warnings.length > 0) g.wrongFlagged++;
      }
      if (outside) g.outside++;
      if (!a.kecamatan) g.noKecamatan++;
      if (!a.kecamatan && !a.kabupaten && !a.provinsi) g.nothing++;
      groups.set(key, g);
    }
    if (!right) misses.push({ c, a });
  });
  return { groups, misses };
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : "-");

/** The report: one line per group (empty groups left out), then the goals missed. */
export function formatWorldRates(r: WorldRates, title = "real-world addresses"): string {
  const head = `${"group".padEnd(24)}${"n".padStart(6)}${"kec".padStart(8)}${"+alts".padStart(8)}${"wrong".padStart(7)}${"<0.5".padStart(8)}${"<0.5|w".padStart(8)}${"outside".padStart(8)}${"no kec".padStart(8)}${"none".padStart(6)}`;
  const lines = [title, head];
  for (const [key, g] of r.groups) {
    if (!g.n) continue;
    lines.push(
      `${key.padEnd(24)}${String(g.n).padStart(6)}${pct(g.right, g.n).padStart(8)}${pct(g.listed, g.n).padStart(8)}${String(g.wrong).padStart(7)}${pct(g.wrongLow, g.wrong).padStart(8)}${pct(g.wrongFlagged, g.wrong).padStart(8)}${String(g.outside).padStart(8)}${String(g.noKecamatan).padStart(8)}${String(g.nothing).padStart(6)}`,
    );
  }
  lines.push(
    "columns: kec = kecamatan right as the answer; +alts = the right kecamatan the answer's or an alternative's; of the wrong answers, <0.5 = confidence below 0.5, <0.5|w = below 0.5 or warned; outside = answers outside the province/kabupaten the text names; no kec = no kecamatan in the answer; none = no region at all",
  );
  const missed = worldGoalsMissed(r);
  lines.push(
    missed.length
      ? `GOALS MISSED:\n  ${missed.join("\n  ")}`
      : `every goal met (kec ${100 * WORLD_GOALS.kecamatanWithProvince}% with province, ${100 * WORLD_GOALS.kecamatanWithoutProvince}% without; +alts ${100 * WORLD_GOALS.withinAlternatives}%; wrong flagged ${100 * WORLD_GOALS.wrongFlagged}%; outside ${WORLD_GOALS.outside})`,
  );
  return lines.join("\n");
}

/** Each goal the rates fall short of, as a message (empty: all met). */
export function worldGoalsMissed(r: WorldRates): string[] {
  const out: string[] = [];
  const check = (key: string, value: (g: WorldGroup) => [number, number], goal: number, what: string) => {
    const g = r.groups.get(key);
    if (!g?.n) return;
    const [a, b] = value(g);
    if (b && a / b < goal) out.push(`${what}: ${pct(a, b)}, goal ${100 * goal}%`);
  };
  check("with_province", (g) => [g.right, g.n], WORLD_GOALS.kecamatanWithProvince, "kecamatan right, with province");
  check("without_province", (g) => [g.right, g.n], WORLD_GOALS.kecamatanWithoutProvince, "kecamatan right, without province");
  check("all", (g) => [g.listed, g.n], WORLD_GOALS.withinAlternatives, "right kecamatan within the answer and alternatives");
  check("all", (g) => [g.wrongFlagged, g.wrong], WORLD_GOALS.wrongFlagged, "wrong answers below 0.5 or warned");
  const outside = r.groups.get("all")?.outside ?? 0;
  if (outside > WORLD_GOALS.outside) out.push(`answers outside the named region: ${outside}, goal ${WORLD_GOALS.outside}`);
  return out;
}

/** The wrong answers, one block each: the text, the label, the answer's kecamatan/kabupaten, confidence and warnings. `names`: id -> name, for reading. */
export function worldMisses(r: WorldRates, names: Map<string, string> = new Map()): string {
  const show = (ref: { id: string; name?: string } | null) => (ref ? `${ref.id} ${ref.name ?? names.get(ref.id) ?? ""}`.trim() : "-");
  return r.misses
    .map(({ c, a }) => {
      const alts = a.alternatives.map((x) => x.id).join(" ");
      return [
        `[${c.style}, kec ${c.kec_form}${c.village_in_street ? ", village in street" : ""}${isOutside(c, a) ? ", OUTSIDE" : ""}] ${c.text}`,
        `  want ${show({ id: c.kecamatan_id })} / ${show({ id: c.kabupaten_id })}`,
        `  got  ${show(a.kecamatan)} / ${show(a.kabupaten)} / ${show(a.provinsi)}  confidence ${a.confidence}${a.warnings.length ? ` warnings ${a.warnings.join(",")}` : ""}${alts ? `  alternatives ${alts}` : ""}`,
      ].join("\n");
    })
    .join("\n");
}

// ---------------------------------------------------------------- calibration of the confidence

/** The confidence bands docs/api.md publishes, highest first: [from, to). */
export const CONFIDENCE_BANDS = [
  { label: "0.9-1", from: 0.9, to: Number.POSITIVE_INFINITY },
  { label: "0.7-0.9", from: 0.7, to: 0.9 },
  { label: "0.5-0.7", from: 0.5, to: 0.7 },
  { label: "below 0.5", from: Number.NEGATIVE_INFINITY, to: 0.5 },
] as const;

export type Band = { label: string; n: number; right: number; wrongWrittenOther: number };

/**
 * Per confidence band, the answers in it and how many are right: the answer's kecamatan is the
 * label's (every text of these sets names a kecamatan, so an answer that stops at the kabupaten does
 * not give what was asked: its confidence says so, docs/address-method.md "Confidence");
 * `wrongWrittenOther`: wrong answers to cases of the harder variant whose written kecamatan is not the label's.
 */
export function calibrate(cases: WorldCase[], answers: WorldAnswer[]): Band[] {
  const bands = CONFIDENCE_BANDS.map((b) => ({ label: b.label, n: 0, right: 0, wrongWrittenOther: 0 }));
  cases.forEach((c, i) => {
    const a = answers[i];
    const band = bands[CONFIDENCE_BANDS.findIndex((b) => a.confidence >= b.from && a.confidence < b.to)];
    const right = a.kecamatan?.id === c.kecamatan_id;
    band.n++;
    if (right) band.right++;
    if (!right && c.kec_agrees === false) band.wrongWrittenOther++;
  });
  return bands;
}

/** The calibration table (Markdown, as docs/api.md shows it): one row per band, one column pair per set. */
export function formatCalibration(sets: { title: string; bands: Band[] }[]): string {
  const total = (bands: Band[]) => bands.reduce((a, b) => a + b.n, 0);
  const head = `| confidence | ${sets.map((s) => `${s.title}: answers | right`).join(" | ")} |`;
  const rule = `| ---------- | ${sets.map(() => "------: | ----:").join(" | ")} |`;
  const rows = CONFIDENCE_BANDS.map((b, k) => {
    const cells = sets.map((s) => {
      const band = s.bands[k];
      return `${band.n} (${pct(band.n, total(s.bands))}) | ${pct(band.right, band.n)}`;
    });
    return `| ${b.label} | ${cells.join(" | ")} |`;
  });
  const all = sets.map((s) => {
    const right = s.bands.reduce((a, b) => a + b.right, 0);
    return `${total(s.bands)} | ${pct(right, total(s.bands))}`;
  });
  const notes = sets.flatMap((s) => {
    const other = s.bands.map((b) => b.wrongWrittenOther);
    return other.some(Boolean)
      ? [
          `${s.title}: of the wrong answers per band, ${CONFIDENCE_BANDS.map((b, k) => `${b.label} ${other[k]} of ${s.bands[k].n - s.bands[k].right}`).join(", ")} are to texts whose written kecamatan is not the label's`,
        ]
      : [];
  });
  return [head, rule, ...rows, `| all | ${all.join(" | ")} |`, ...notes].join("\n");
}

// ---------------------------------------------------------------- raw addresses (coverage only)

/** What the coverage reads of an answer: the level it reached, and its confidence. */
export type RawAnswer = { level: string | null; confidence: number; warnings: string[] };

export type RawRates = {
  n: number;
  answered: number;
  byLevel: Map<string, number>;
  meanConfidence: number;
  warned: number;
  errors: number;
  errorSamples: string[];
};

/** `answers[i]`: the answer to `texts[i]`, or the exception resolving it threw. */
export function rateRaw(texts: string[], answers: (RawAnswer | Error)[]): RawRates {
  const byLevel = new Map<string, number>();
  let answered = 0;
  let sum = 0;
  let warned = 0;
  let errors = 0;
  const errorSamples: string[] = [];
  answers.forEach((a, i) => {
    if (a instanceof Error) {
      errors++;
      if (errorSamples.length < 5) errorSamples.push(`${texts[i]}: ${a.message}`);
      return;
    }
    if (a.level) {
      answered++;
      sum += a.confidence;
      byLevel.set(a.level, (byLevel.get(a.level) ?? 0) + 1);
    }
    if (a.warnings.length) warned++;
  });
  return { n: texts.length, answered, byLevel, meanConfidence: answered ? sum / answered : 0, warned, errors, errorSamples };
}

export function formatRawRates(r: RawRates, title = "raw addresses (unlabelled: coverage only)"): string {
  const levels = ["kelurahan", "kecamatan", "kabupaten", "provinsi"].map((l) => `${l} ${r.byLevel.get(l) ?? 0} (${pct(r.byLevel.get(l) ?? 0, r.n)})`);
  return [
    title,
    `  ${r.n} addresses: answered ${r.answered} (${pct(r.answered, r.n)}), nothing ${r.n - r.answered - r.errors}; by level: ${levels.join(", ")}`,
    `  mean confidence of the answered ${r.meanConfidence.toFixed(3)}; with a warning ${r.warned}; errors (exceptions) ${r.errors}`,
    ...r.errorSamples.map((s) => `  error: ${s}`),
  ].join("\n");
}
