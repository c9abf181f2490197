/**
 * Addresses (docs/api.md, "Addresses"; the method: docs/address-method.md): free text in, region
 * codes out, one address or a batch. Each address is parsed (parse.ts), its phrases read as search
 * reads names (phrases.ts), the batch's phrases looked up together in the search index (queries.ts)
 * and each address scored on its own (resolve.ts). Knows nothing of HTTP.
 */
import type { RegionDb } from "../../db/client";
import { bpsTargets } from "../bps/service";
import type { Level } from "../codes";
import { convert, predecessors } from "../history/service";
import { nameTable } from "../names/shipped";
import { vocabulary } from "../search/vocabulary";
import { type AddressComponents, parseAddress } from "./parse";
import { phrasesOf } from "./phrases";
import { areaRegions, lookupPhrases } from "./queries";
import { type CodeTarget, type Matched, type RegionHit, type Resolution, type Rounds, resolve, type Warning } from "./resolve";

export { WARNINGS } from "./resolve";

type Ref = { id: string; name: string };

export type AddressAnswer = {
  input: string;
  components: AddressComponents;
  kelurahan: Ref | null;
  kecamatan: Ref | null;
  kabupaten: Ref | null;
  provinsi: Ref | null;
  postal_code: string | null;
  level: Level | null;
  confidence: number;
  alternatives: { id: string; name: string; level: Level; parent: string | null; confidence: number }[];
  warnings: Warning[];
  matched: Matched[];
};

const round = (x: number) => Math.round(x * 1000) / 1000;

/** The region's chain as `{id, name}` per level, from its id and its parents' names (nearest first). */
function chain(hit: RegionHit): Record<Level, Ref | null> {
  const out: Record<Level, Ref | null> = { kelurahan: null, kecamatan: null, kabupaten: null, provinsi: null };
  const levels: Level[] = ["provinsi", "kabupaten", "kecamatan", "kelurahan"];
  const depth = levels.indexOf(hit.level);
  const parents = hit.parent ? hit.parent.split(", ") : [];
  const parts = hit.id.split(".");
  out[hit.level] = { id: hit.id, name: hit.name };
  for (let d = depth - 1, i = 0; d >= 0; d--, i++) out[levels[d]] = { id: parts.slice(0, d + 1).join("."), name: parents[i] ?? "" };
  return out;
}

function answer(input: string, components: AddressComponents, r: Resolution): AddressAnswer {
  const levels = r.top ? chain(r.top) : { kelurahan: null, kecamatan: null, kabupaten: null, provinsi: null };
  return {
    input,
    // A dusun/kampung segment that named the village itself is the village, not a hamlet of it.
    components: r.villageFromHamlet ? { ...components, dusun: null } : components,
    ...levels,
    postal_code: r.top?.level === "kelurahan" ? r.top.postal : null,
    level: r.top?.level ?? null,
    confidence: round(r.confidence),
    alternatives: r.alternatives.map((a) => ({ id: a.hit.id, name: a.hit.name, level: a.hit.level, parent: a.hit.parent, confidence: round(a.confidence) })),
    warnings: r.warnings,
    matched: r.matched,
  };
}

/**
 * What each written code stands for today (the history's /convert, one statement for the whole
 * batch): a current code itself; a code of an earlier edition its successors, marked `former`
 * (several: the region was split, the text decides between them). A code no edition holds: `unknown`.
 */
async function convertCodes(db: RegionDb, ids: string[]) {
  const targets = new Map<string, { id: string; former: boolean; several: boolean }[]>();
  const unknown = new Set<string>();
  if (ids.length === 0) return { targets, unknown };
  const { data } = await convert(db, ids);
  data.forEach((c, i) => {
    if (c.status === "current" && c.current) targets.set(ids[i], [{ id: c.current.id, former: false, several: false }]);
    else if (c.status === "retired")
      targets.set(
        ids[i],
        c.successors.map((s) => ({ id: s.id, former: true, several: c.successors.length > 1 })),
      );
    else unknown.add(ids[i]);
  });
  return { targets, unknown };
}

/**
 * Resolves addresses, answers in the same order. At most five statements whatever their number:
 * only if some address holds a region code, the codes' current regions (region history); only if
 * some number no edition holds may be a BPS code, the BPS crosswalk; the
 * phrases, postal codes and those regions of all of them; then, only if some answer left a name
 * unexplained, the regions of those areas (compared in the isolate); then, only if some village
 * lies outside the kecamatan the text labels, those villages' earlier codes (region history).
 */
export async function resolveAddresses(db: RegionDb, texts: string[]): Promise<AddressAnswer[]> {
  const ctx = { lexicon: vocabulary(), table: nameTable() };
  const batch = texts.map((input) => {
    const parsed = parseAddress(input);
    return { input, parsed, phrases: phrasesOf(parsed, ctx) };
  });
  const phrases = [...new Set(batch.flatMap((b) => b.phrases.map((p) => p.phrase)))];
  const postals = [...new Set(batch.flatMap((b) => (b.parsed.components.postal_code ? [b.parsed.components.postal_code] : [])))];
  const written = batch.flatMap((b) => b.parsed.codes);
  const { targets: codes, unknown } = await convertCodes(db, [...new Set(written.map((c) => c.id))]);
  // A number is read as a BPS code only when no edition of Kemendagri's list holds it as a code (7
  // digits never are one; 4,039 of the 84,108 BPS village codes are, mostly another region's): one
  // more statement, only when some address holds such a number.
  const bps = await bpsTargets(db, [...new Set(written.flatMap((c) => (c.bps && unknown.has(c.id) ? [c.bps] : [])))]);
  for (const c of written) {
    const target = c.bps && unknown.has(c.id) ? bps.get(c.bps) : undefined;
    if (!target) continue;
    codes.set(c.id, [{ id: target, former: false, several: false }]);
    unknown.delete(c.id);
  }
  const targets = [...new Set([...codes.values()].flatMap((list) => list.map((t) => t.id)))];
  const { byId, ...rest } = await lookupPhrases(db, phrases, postals, targets);
  const byCode = new Map<string, CodeTarget[]>();
  for (const [code, list] of codes) {
    const hits = list.flatMap((t) => {
      const hit = byId.get(t.id);
      return hit ? [{ hit, former: t.former, several: t.several }] : [];
    });
    if (hits.length) byCode.set(code, hits);
  }
  const found = { ...rest, byCode, unknownCodes: unknown };
  const rounds: Rounds[] = batch.map(() => ({}));
  const run = (i: number) => resolve(batch[i].parsed, batch[i].phrases, found, rounds[i]);
  const results = batch.map((_, i) => run(i));
  const areas = [...new Set(results.flatMap((r) => (r.expand ? [r.expand] : [])))];
  if (areas.length) {
    const regions = await areaRegions(db, areas);
    results.forEach((r, i) => {
      if (!r.expand) return;
      rounds[i].extra = regions.get(r.expand) ?? [];
      results[i] = run(i);
    });
  }
  const moved = [...new Set(results.flatMap((r) => (r.movedCheck ? [r.movedCheck] : [])))];
  if (moved.length) {
    const earlier = await predecessors(db, moved);
    results.forEach((r, i) => {
      if (!r.movedCheck) return;
      rounds[i].moved = earlier;
      results[i] = run(i);
    });
  }
  return results.map((r, i) => answer(batch[i].input, batch[i].parsed.components, r));
}
