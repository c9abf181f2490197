/**
 * The address quality rates (issue 24) of a set of answers: per style, the kelurahan right as the top
 * answer where the text determines one village, the kabupaten right where the text names one, the
 * warnings expected and given, and the calibration of the confidence; with the issue's floors. Pure
 * (no Node API): the Worker test (test/wilayah/address-quality.test.ts) and the node-side script
 * (scripts/address-quality.ts) print the same report.
 */
import type { RealAddress } from "./address-real.ts";
import type { AddressCase } from "./address-set.ts";

/** What the rates read of an answer (the API's per-address answer). */
export type RatedAnswer = {
  kelurahan: { id: string } | null;
  kecamatan: { id: string } | null;
  kabupaten: { id: string } | null;
  confidence: number;
  alternatives: { id: string }[];
  warnings: string[];
};

/**
 * The floors, kelurahan right as the top answer where the text determines one village: 92% with a
 * typo, 95% with street traps, 90% with the village and city only (and with the village and postal
 * code only, the other partial style); 97% for every complete address.
 */
export const FLOORS: Record<string, number> = { typo: 0.92, street_trap: 0.95, village_city: 0.9, postal_village: 0.9 };
export const COMPLETE_FLOOR = 0.97;
export const KABUPATEN_FLOOR = 0.995;
/** Of the answers at confidence >= 0.9, right at least this often. */
export const HIGH_CONFIDENCE_FLOOR = 0.99;
/** Of the answers below 0.5, the right village is the answer or among the alternatives at least this often. */
export const LOW_CONFIDENCE_FLOOR = 0.8;

/** Warnings the set expects where they apply (`ambiguous` is never expected nor counted as wrong). */
const CHECKED_WARNINGS = [
  "typo_corrected",
  "former_name",
  "former_code",
  "unknown_code",
  "postal_code_mismatch",
  "kabupaten_inconsistent",
  "kecamatan_inconsistent",
];

type StyleRate = {
  n: number;
  top: number;
  determined: number;
  determinedRight: number;
  kabupaten: number;
  kabupatenRight: number;
  listed: number;
  warned: number;
  warnedRight: number;
};

export type Rates = {
  styles: Map<string, StyleRate>;
  all: { determined: number; determinedRight: number; kabupaten: number; kabupatenRight: number };
  falseWarnings: Map<string, number>;
  calibration: {
    high: number;
    highRight: number;
    mid: number;
    midRight: number;
    low: number;
    lowRight: number;
    lowListed: number;
    lowWrong: number;
    lowWrongListed: number;
  };
  bins: { from: number; to: number; n: number; mean: number; right: number }[];
  misses: { c: AddressCase; a: RatedAnswer }[];
  real: { n: number; right: number; misses: { a: RealAddress; got: RatedAnswer }[] };
};

export function rateAnswers(set: AddressCase[], answers: RatedAnswer[], real: RealAddress[] = [], realAnswers: RatedAnswer[] = []): Rates {
  const styles = new Map<string, StyleRate>();
  const falseWarnings = new Map<string, number>();
  const all = { determined: 0, determinedRight: 0, kabupaten: 0, kabupatenRight: 0 };
  const cal = { high: 0, highRight: 0, mid: 0, midRight: 0, low: 0, lowRight: 0, lowListed: 0, lowWrong: 0, lowWrongListed: 0 };
  const misses: Rates["misses"] = [];
  const points: { confidence: number; right: boolean }[] = [];
  set.forEach((c, i) => {
    const a = answers[i];
    const s = styles.get(c.style) ?? { n: 0, top: 0, determined: 0, determinedRight: 0, kabupaten: 0, kabupatenRight: 0, listed: 0, warned: 0, warnedRight: 0 };
    const right = a.kelurahan?.id === c.kelurahan_id;
    const listed = right || a.alternatives.some((x) => x.id === c.kelurahan_id);
    s.n++;
    if (right) s.top++;
    if (listed) s.listed++;
    if (c.determined) {
      s.determined++;
      all.determined++;
      if (right) {
        s.determinedRight++;
        all.determinedRight++;
      } else misses.push({ c, a });
    }
    if (c.names_kabupaten) {
      s.kabupaten++;
      all.kabupaten++;
      if (a.kabupaten?.id === c.kabupaten_id) {
        s.kabupatenRight++;
        all.kabupatenRight++;
      }
    }
    if (c.warnings?.length) {
      s.warned++;
      if (c.warnings.every((w) => a.warnings.includes(w))) s.warnedRight++;
    }
    for (const w of CHECKED_WARNINGS) if (a.warnings.includes(w) && !c.warnings?.includes(w)) falseWarnings.set(w, (falseWarnings.get(w) ?? 0) + 1);
    styles.set(c.style, s);
    points.push({ confidence: a.confidence, right });
    if (a.confidence >= 0.9) {
      cal.high++;
      if (right) cal.highRight++;
    } else if (a.confidence >= 0.5) {
      cal.mid++;
      if (right) cal.midRight++;
    } else {
      cal.low++;
      if (right) cal.lowRight++;
      if (listed) cal.lowListed++;
      if (!right) {
        cal.lowWrong++;
        if (listed) cal.lowWrongListed++;
      }
    }
  });
  const edges = [0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0001];
  const bins: Rates["bins"] = [];
  for (let k = 0; k + 1 < edges.length; k++) {
    const inBin = points.filter((p) => p.confidence >= edges[k] && p.confidence < edges[k + 1]);
    if (inBin.length)
      bins.push({
        from: edges[k],
        to: Math.min(1, edges[k + 1]),
        n: inBin.length,
        mean: inBin.reduce((x, p) => x + p.confidence, 0) / inBin.length,
        right: inBin.filter((p) => p.right).length,
      });
  }
  const realMisses = real.flatMap((a, i) => (realAnswers[i]?.kelurahan?.id === a.kelurahan_id ? [] : [{ a, got: realAnswers[i] }]));
  return { styles, all, falseWarnings, calibration: cal, bins, misses, real: { n: real.length, right: real.length - realMisses.length, misses: realMisses } };
}

export const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}%` : "-");

/** The report both runners print. */
export function formatRates(r: Rates): string {
  const lines = [
    `${"style".padEnd(18)}${"n".padStart(5)}${"top".padStart(8)}${"determ.".padStart(9)}${"top|det".padStart(9)}${"floor".padStart(7)}${"kab".padStart(8)}${"listed".padStart(8)}${"warning".padStart(9)}`,
  ];
  for (const [style, s] of r.styles) {
    lines.push(
      `${style.padEnd(18)}${String(s.n).padStart(5)}${pct(s.top, s.n).padStart(8)}${String(s.determined).padStart(9)}${pct(s.determinedRight, s.determined).padStart(9)}${`${Math.round(100 * (FLOORS[style] ?? COMPLETE_FLOOR))}%`.padStart(7)}${pct(s.kabupatenRight, s.kabupaten).padStart(8)}${pct(s.listed, s.n).padStart(8)}${pct(s.warnedRight, s.warned).padStart(9)}`,
    );
  }
  const a = r.all;
  lines.push(
    `${"all".padEnd(18)}${"".padStart(13)}${String(a.determined).padStart(9)}${pct(a.determinedRight, a.determined).padStart(9)}${"".padStart(7)}${pct(a.kabupatenRight, a.kabupaten).padStart(8)}`,
  );
  lines.push(
    `columns: top = kelurahan right as the top answer; top|det = the same where the text determines one village (the floor applies); kab = kabupaten right where the text names one (floor ${100 * KABUPATEN_FLOOR}% over all); listed = right as the answer or an alternative; warning = the expected warning given`,
  );
  lines.push(`warnings given where the entry expects none: ${CHECKED_WARNINGS.map((w) => `${w} ${r.falseWarnings.get(w) ?? 0}`).join(", ")}`);
  const c = r.calibration;
  lines.push(
    `calibration: confidence >= 0.9: ${c.high} answers, ${pct(c.highRight, c.high)} right (floor ${100 * HIGH_CONFIDENCE_FLOOR}%); 0.5-0.9: ${c.mid}, ${pct(c.midRight, c.mid)} right; < 0.5: ${c.low}, ${pct(c.lowRight, c.low)} right, the right village the answer or an alternative ${pct(c.lowListed, c.low)} (floor ${100 * LOW_CONFIDENCE_FLOOR}%; of the ${c.lowWrong} wrong ones, among the alternatives ${pct(c.lowWrongListed, c.lowWrong)})`,
  );
  for (const b of r.bins)
    lines.push(
      `  confidence [${b.from.toFixed(1)}, ${b.to.toFixed(1)}${b.to === 1 ? "]" : ")"}: ${String(b.n).padStart(5)} answers, mean ${b.mean.toFixed(2)}, right ${pct(b.right, b.n)}`,
    );
  if (r.real.n) {
    lines.push(`real addresses: ${r.real.right}/${r.real.n} right (${pct(r.real.right, r.real.n)})`);
    for (const m of r.real.misses)
      lines.push(`  miss: ${m.a.text} (want ${m.a.kelurahan_id}, got ${m.got?.kelurahan?.id ?? m.got?.kecamatan?.id ?? m.got?.kabupaten?.id ?? "nothing"})`);
  }
  return lines.join("\n");
}

/** Each floor the rates fall below, as a message (empty: all met). */
export function belowFloors(r: Rates): string[] {
  const out: string[] = [];
  for (const [style, s] of r.styles) {
    const floor = FLOORS[style] ?? COMPLETE_FLOOR;
    if (s.determined && s.determinedRight / s.determined < floor) out.push(`${style}: ${pct(s.determinedRight, s.determined)} right, floor ${100 * floor}%`);
  }
  if (r.all.kabupaten && r.all.kabupatenRight / r.all.kabupaten < KABUPATEN_FLOOR)
    out.push(`kabupaten: ${pct(r.all.kabupatenRight, r.all.kabupaten)} right, floor ${100 * KABUPATEN_FLOOR}%`);
  const c = r.calibration;
  if (c.high && c.highRight / c.high < HIGH_CONFIDENCE_FLOOR)
    out.push(`confidence >= 0.9: ${pct(c.highRight, c.high)} right, floor ${100 * HIGH_CONFIDENCE_FLOOR}%`);
  if (c.low && c.lowListed / c.low < LOW_CONFIDENCE_FLOOR)
    out.push(`confidence < 0.5: right village listed ${pct(c.lowListed, c.low)}, floor ${100 * LOW_CONFIDENCE_FLOOR}%`);
  return out;
}
