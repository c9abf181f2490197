/**
 * How a search statement's rows say why they matched: the ranking `key` and the reading id `h`.
 * The SQL builder (queries.ts) writes them and the result reader (service.ts) reads them, both
 * through this module, so the numbers live in one place.
 */
import { MAX_READINGS } from "../names/readings";

/**
 * key = rank * 2 + miss, where `miss` is 1 when the row is not of the query's level hint (so a hint
 * orders rows inside a rank, never across ranks), and the rank is, smaller first:
 *   CODE (the query is the region's code) < POSTAL (a postal code of the village)
 *   < EXACT < CONTEXT_EXACT < PREFIX < CONTEXT_PREFIX < WORD < CONTEXT_WORD      (as typed, or a name reading)
 *   < the same six + FUZZY                                                      (typo-corrected)
 *   < SUBSTRING                                                                 (inside a word)
 * A plain search (one word or phrase: searchRegionsSql) writes the tier (0 exact, 1 prefix, 2 word,
 * 3 substring) as its key and no reading id.
 *
 * h = variant * 100 + reading. Variants (VARIANT): the query as typed; its name readings
 * (src/wilayah/names: spacing, old spellings, short forms, historic names; ranked like the query as
 * typed); its typo-corrected variants (ranked + FUZZY). Reading: LITERAL (all words are the region's
 * own name), 1.. the context readings in plan order, TYPED (the query as typed when hints or commas
 * changed the literal reading), CODE, POSTAL.
 * A region matched several ways keeps its smallest key and, among equal keys, the smallest h
 * (packed: key * 2^H_BITS + h), so a match of the query as typed is reported before a reading's.
 */
export const RANK = {
  CODE: -4,
  POSTAL: -2,
  EXACT: 0,
  CONTEXT_EXACT: 1,
  PREFIX: 2,
  CONTEXT_PREFIX: 3,
  WORD: 4,
  CONTEXT_WORD: 5,
  /** Added to the six name ranks for a typo-corrected reading: after every match as typed, before substrings. */
  FUZZY: 6,
  SUBSTRING: 12,
} as const;

/** The key of a rank as SQL text, plus the level-hint bit's SQL when given. */
export const keySql = (rank: number, missSql?: string) => (missSql === undefined ? `${Math.trunc(rank) * 2}` : `${Math.trunc(rank) * 2} + ${missSql}`);

export const READING = { LITERAL: 0, TYPED: 97, CODE: 98, POSTAL: 99 } as const;

/** At most this many variants of each kind in one statement: the name readings and the typo-corrected variants. */
export const NAME_READINGS = MAX_READINGS;
export const CORRECTED_VARIANTS = 3;

/** Variant numbers: 0 the query as typed, then the name readings, then the typo-corrected variants. */
const VARIANT = { TYPED: 0, FIRST_READING: 1, FIRST_CORRECTED: 1 + NAME_READINGS } as const;

/** Which variant of the query a row came from; `index` counts from 0 within its kind. */
export type VariantSource = { kind: "typed" } | { kind: "reading"; index: number } | { kind: "corrected"; index: number };

export function variantNumber(v: VariantSource): number {
  if (v.kind === "typed") return VARIANT.TYPED;
  const [first, count] = v.kind === "reading" ? [VARIANT.FIRST_READING, NAME_READINGS] : [VARIANT.FIRST_CORRECTED, CORRECTED_VARIANTS];
  if (v.index < 0 || v.index >= count) throw new Error(`no ${v.kind} variant ${v.index}`);
  return first + v.index;
}

function variantSource(n: number): VariantSource {
  if (n === VARIANT.TYPED) return { kind: "typed" };
  return n < VARIANT.FIRST_CORRECTED ? { kind: "reading", index: n - VARIANT.FIRST_READING } : { kind: "corrected", index: n - VARIANT.FIRST_CORRECTED };
}

/** Bits of h in a packed (key, h): every h is below 2^H_BITS (the last variant's POSTAL is 799). */
const H_BITS = 10;
/** SQL: a row's key and h packed into one integer whose order is (key, h), for min() over a region's rows. */
export const packSql = (key: string, h: string) => `${key} * ${1 << H_BITS} + ${h}`;
/** SQL: the key and the h of a packed value (`>>` keeps the sign: CODE's keys are negative). */
export const packedKeySql = (packed: string) => `${packed} >> ${H_BITS}`;
export const packedHSql = (packed: string) => `${packed} & ${(1 << H_BITS) - 1}`;

/** A reading's id in a variant: LITERAL, a context reading (its index in the plan, from 0), or a special reading. */
export function readingId(variant: VariantSource, reading: { context: number } | (typeof READING)[keyof typeof READING]): number {
  return variantNumber(variant) * 100 + (typeof reading === "number" ? reading : reading.context + 1);
}

export type MatchType = "code" | "postal_code" | "exact" | "prefix" | "word" | "substring";
const TIERS = ["exact", "prefix", "word", "substring"] as const;

/** A plain search's tier key as its match type. */
export const plainMatchType = (key: number): MatchType => TIERS[key];

/** What a planned statement's row says: its match type, whether it came from a corrected reading, and which variant and reading. */
export function decodeRow(
  key: number,
  h: number,
): { type: MatchType; fuzzy: boolean; variant: VariantSource; reading: "literal" | "typed" | { context: number } } {
  const rank = Math.floor(key / 2);
  const variant = variantSource(Math.floor(h / 100));
  const r = h % 100;
  const reading = r === READING.TYPED ? ("typed" as const) : r === READING.LITERAL ? ("literal" as const) : { context: r - 1 };
  if (rank === RANK.CODE) return { type: "code", fuzzy: false, variant, reading };
  if (rank === RANK.POSTAL) return { type: "postal_code", fuzzy: false, variant, reading };
  if (rank >= RANK.SUBSTRING) return { type: "substring", fuzzy: false, variant, reading };
  const fuzzy = rank >= RANK.FUZZY;
  // EXACT/CONTEXT_EXACT -> exact, PREFIX/CONTEXT_PREFIX -> prefix, WORD/CONTEXT_WORD -> word
  return { type: TIERS[Math.floor((fuzzy ? rank - RANK.FUZZY : rank) / 2)], fuzzy, variant, reading };
}
