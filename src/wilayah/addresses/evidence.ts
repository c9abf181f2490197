/**
 * What an address's text names, before any candidate is scored (docs/address-method.md, "Named
 * regions, the labelled kecamatan"; moved from resolve.ts): the provinsi or kabupaten/kota every
 * answer must lie in (the scope), the kecamatan a `Kec.` label binds the answer to, and the postal
 * code's villages. Pure, as the rest of the resolver.
 */
import type { Level } from "../codes";
import { nearContextName } from "../edits";
import { normalizeSearchText } from "../normalize";
import type { RegionHit } from "./matching";
import type { ParsedAddress } from "./parse";
import { MAX_SEGMENT_WORDS, type Phrase } from "./phrases";

/** What a written region code stands for today: the region itself, or (`former`) a successor of a code of an earlier edition (`several`: one of the regions it was split into). */
export type CodeTarget = { hit: RegionHit; former: boolean; several: boolean };

/** The lookup's answer: regions by exact term (`former`: the term is a name of an earlier edition only), villages by postal code, the current regions of written codes (by dotted code). */
export type Lookup = {
  byTerm: Map<string, { hit: RegionHit; former: boolean }[]>;
  byPostal: Map<string, RegionHit[]>;
  byCode: Map<string, CodeTarget[]>;
  /** Written codes (dotted) that no edition since 2015 holds. */
  unknownCodes: Set<string>;
};

/** The kecamatan a `Kec.` label names (labelledKecamatan). */
export type Labelled = { ids: Set<string>; unmatched: boolean; partial: boolean; fuzzy?: { seg: number; length: number; d: number; phrase: string } };

/** The postal code written and its villages (with their kecamatan). */
export type Postal = { code: string | null; villages: RegionHit[]; ids: Set<string>; kecs: Set<string> };

/** What every step reads: the text, its phrases, what the lookup found, the areas the text names, its postal code, the second round's regions. */
export type Evidence = { parsed: ParsedAddress; phrases: Phrase[]; found: Lookup; scope: string[]; labelled: Labelled; postal: Postal; extra: RegionHit[] };

export function evidenceOf(parsed: ParsedAddress, phrases: Phrase[], found: Lookup, extra: RegionHit[]): Evidence {
  const scope = namedScope(parsed, phrases, found);
  const labelled = labelledKecamatan(parsed, phrases, found, scope, extra);
  const code = parsed.components.postal_code;
  const villages = code ? (found.byPostal.get(code) ?? []) : [];
  const postal = { code, villages, ids: new Set(villages.map((v) => v.id)), kecs: new Set(villages.map((v) => v.id.slice(0, 8))) };
  return { parsed, phrases, found, scope, labelled, postal, extra };
}

/** Whether `id` lies in `area` or is one of its parents (the area itself included). */
export const related = (id: string, area: string) => id === area || id.startsWith(`${area}.`) || area.startsWith(`${id}.`);

/** Whether `id` is related to one of `areas`; no areas bind nothing (no scope named, no kecamatan labelled). */
export const within = (id: string, areas: Iterable<string>) => {
  const list = [...areas];
  return list.length === 0 || list.some((a) => related(id, a));
};

/** A provinsi or kabupaten/kota the text names, and the segment that names it. */
type Named = { areas: string[]; seg: number };

/**
 * The provinsi or kabupaten/kota the text names unambiguously (docs/address-method.md, "Named
 * regions"): a segment marked `Kab.`, `Kota`, `Prov.`... read whole as exactly one region of that
 * level, or an unmarked segment after the last kecamatan/village label read whole as exactly one
 * provinsi (`..., Jawa Tengah`); Kota and Kabupaten Bekasi both when it reads as either (people
 * write one for the other: the answer then warns kabupaten_inconsistent). A `Kota X` that may be
 * a place's name and that what else the text names contradicts is no named kota (`placeNameKota`).
 * The deepest of them is the scope every answer must lie in; of a kabupaten and a provinsi that
 * contradict each other, the one the labelled kecamatan lies in, else the kabupaten (the more
 * specific: a province written out of date, as the 2022 Papua splits left many).
 */
function namedScope(parsed: ParsedAddress, phrases: Phrase[], found: Lookup): string[] {
  const lastLower = parsed.regions.reduce((a, s, i) => (s.level === "kelurahan" || s.level === "kecamatan" ? i : a), -1);
  const all: Named[] = [];
  parsed.regions.forEach((s, seg) => {
    const upper = s.level === "kabupaten" || s.level === "provinsi";
    if (!upper && (s.marker !== null || seg <= lastLower)) return;
    const length = Math.min(s.words.length, MAX_SEGMENT_WORDS);
    const level: Level = s.level === "kabupaten" ? "kabupaten" : "provinsi";
    const ids = new Set<string>();
    for (const p of phrases) {
      if (p.seg !== seg || p.from !== 0 || p.to !== length) continue;
      for (const { hit } of found.byTerm.get(p.phrase) ?? []) if (hit.level === level) ids.add(hit.id);
    }
    // Kota X and Kabupaten X (people write one for the other) are both allowed; names shared across provinces are no scope.
    const list = [...ids];
    if (list.length === 1 || (list.length === 2 && list[0].slice(0, 2) === list[1].slice(0, 2))) all.push({ areas: list, seg });
  });
  if (all.length === 0) return [];
  const labelled = [...labelledKecamatan(parsed, phrases, found, [], []).ids];
  const named = all.filter((n) => !placeNameKota(parsed, found, n, all, labelled));
  if (named.length === 0) return [];
  // The deepest named areas, inside the provinsi named where they can be; of two kabupaten that
  // contradict each other, the one the province holds, else the last written (`Jl. Raya Kota Batu,
  // ..., Kab. Ogan Komering Ulu Selatan`: addresses run from the street to the province).
  const depth = Math.max(...named.map((n) => n.areas[0].length));
  const deepest = named.filter((n) => n.areas[0].length === depth);
  const upper = named.filter((n) => n.areas[0].length < depth);
  const fits = (areas: string[]) => upper.every((p) => areas.some((id) => p.areas.some((a) => related(id, a))));
  const kabupaten = [...deepest].reverse().find((n) => fits(n.areas)) ?? (deepest.at(-1) as Named);
  const province = upper.at(-1);
  if (!province || fits(kabupaten.areas)) return kabupaten.areas;
  const byLabel = labelled.some((id) => inside(id, province.areas)) && !labelled.some((id) => inside(id, kabupaten.areas));
  return byLabel ? province.areas : kabupaten.areas;
}

/** Whether `id` is one of `areas` or lies in one. */
const inside = (id: string, areas: string[]) => areas.some((a) => id === a || id.startsWith(`${a}.`));

/**
 * A kota named by `Kota X` where `Kota` may be a word of a place's name (a street's, a hamlet's, a
 * village's: `Simpang Kota Medan`, `Pengalihan Keritang Kota Baru`, `Aek Kota Batu`), and that the
 * rest of the text contradicts: the labelled kecamatan does not lie in it, or the province named
 * does not hold it. `Kota` may be a name's word when it follows other words of its part, or when
 * `Kota X` as written is the name of a village or kecamatan (Kota Baru, in many provinces).
 */
function placeNameKota(parsed: ParsedAddress, found: Lookup, n: Named, all: Named[], labelled: string[]): boolean {
  const seg = parsed.regions[n.seg];
  if (seg.marker !== "kota") return false;
  const provinces = all.filter((p) => p.areas[0].length === 2).flatMap((p) => p.areas);
  const contradicted =
    (labelled.length > 0 && !labelled.some((id) => inside(id, n.areas))) || (provinces.length > 0 && !n.areas.some((id) => inside(id, provinces)));
  if (!contradicted) return false;
  const lower = (found.byTerm.get(normalizeSearchText(seg.raw)) ?? []).some(({ hit }) => hit.level === "kelurahan" || hit.level === "kecamatan");
  return !!seg.afterWords || lower;
}

/**
 * The kecamatan a segment labelled `Kec.` names inside the scope: those read by its longest phrase
 * naming some (`Kec. Kota Padang Utara`: Padang Utara), several when the name is borne by several
 * and nothing else tells them apart. Empty when no labelled segment names one there (then a second
 * round compares the scope's kecamatan with the words as written).
 */
function labelledKecamatan(parsed: ParsedAddress, phrases: Phrase[], found: Lookup, scope: string[], extra: RegionHit[]): Labelled {
  let best: { words: number; ids: Set<string>; whole: boolean } = { words: 0, ids: new Set(), whole: false };
  let labelled = false;
  parsed.regions.forEach((s, seg) => {
    if (s.level !== "kecamatan") return;
    labelled = true;
    const length = Math.min(s.words.length, MAX_SEGMENT_WORDS);
    for (const p of phrases) {
      if (p.seg !== seg) continue;
      for (const { hit } of found.byTerm.get(p.phrase) ?? []) {
        if (hit.level !== "kecamatan" || !within(hit.id, scope)) continue;
        const words = p.to - p.from - p.corrections.length * 0.5;
        const whole = p.from === 0 && p.to === length && !p.corrections.length;
        if (words > best.words) best = { words, ids: new Set([hit.id]), whole };
        else if (words === best.words) {
          best.ids.add(hit.id);
          best.whole ||= whole;
        }
      }
    }
  });
  // Named by a part of the segment only (`Kec. Telaga Jaya` naming Telaga): a kecamatan whose whole
  // name is the segment with a letter or two off (Talaga Jaya) is the likelier, when the second round has one.
  const partial = labelled && best.ids.size > 0 && !best.whole;
  if (!labelled || (best.ids.size && !partial) || !extra.length) return { ids: best.ids, unmatched: labelled && best.ids.size === 0, partial };
  // None named exactly, or only by a part: the kecamatan of the second round's area nearest to a
  // labelled segment as written, within one edit per 8 letters (at least 1; `Sinembah Tnjng Muda Hulu`).
  let nearest = { d: Number.POSITIVE_INFINITY, ids: new Set<string>(), seg: -1, length: 0, phrase: "" };
  const kecs = extra.filter((h) => h.level === "kecamatan");
  parsed.regions.forEach((s, seg) => {
    if (s.level !== "kecamatan") return;
    const length = Math.min(s.words.length, MAX_SEGMENT_WORDS);
    const written = phrases.filter((p) => p.seg === seg && p.from === 0 && p.to === length && !p.corrections.length && !p.only).map((p) => p.phrase);
    for (const k of kecs) {
      for (const w of written) {
        const near = w.length >= 3 ? nearContextName(w, [k.name, k.altName]) : null;
        if (!near || near.d > nearest.d) continue;
        if (near.d < nearest.d) nearest = { d: near.d, ids: new Set(), seg, length, phrase: near.name };
        nearest.ids.add(k.id);
      }
    }
  });
  if (nearest.ids.size === 0) return { ids: best.ids, unmatched: best.ids.size === 0, partial };
  return { ids: nearest.ids, unmatched: false, partial: false, fuzzy: { seg: nearest.seg, length: nearest.length, d: nearest.d, phrase: nearest.phrase } };
}
