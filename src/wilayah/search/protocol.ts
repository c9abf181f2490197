/**
 * How a search statement's rows say why they matched: the ranking `key` and the reading id `h`.
 * The SQL builder (queries.ts) writes them and the result reader (service.ts) reads them, both
 * through this module, so the numbers live in one place.
 *
 * key = rank * 2 + miss, where `miss` is 1 when the row is not of the query's level hint (so a hint
 * orders rows inside a rank, never across ranks), and the rank is, smaller first:
 *   CODE (the query is the region's code) < POSTAL (a postal code of the village)
 *   < EXACT < CONTEXT_EXACT < PREFIX < CONTEXT_PREFIX < WORD < CONTEXT_WORD      (as typed)
 *   < the same six + FUZZY                                                      (typo-corrected)
 *   < SUBSTRING                                                                 (inside a word)
 * A plain search (one word or phrase: searchRegionsSql) writes the tier (0 exact, 1 prefix, 2 word,
 * 3 substring) as its key and no reading id.
 *
 * h = variant * 100 + reading: variant 0 is the query as typed, 1.. its typo-corrected variants;
 * reading LITERAL (all words are the region's own name), 1.. the context readings in plan order,
 * TYPED (the query as typed when hints or commas changed the literal reading), CODE, POSTAL.
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

/** A reading's id in a variant: LITERAL, a context reading (its index in the plan, from 0), or a special reading. */
export function readingId(variant: number, reading: { context: number } | (typeof READING)[keyof typeof READING]): number {
  return variant * 100 + (typeof reading === "number" ? reading : reading.context + 1);
}

export type MatchType = "code" | "postal_code" | "exact" | "prefix" | "word" | "substring";
const TIERS = ["exact", "prefix", "word", "substring"] as const;

/** A plain search's tier key as its match type. */
export const plainMatchType = (key: number): MatchType => TIERS[key];

/** What a planned statement's row says: its match type, whether it came from a corrected reading, and which reading. */
export function decodeRow(key: number, h: number): { type: MatchType; fuzzy: boolean; variant: number; reading: "literal" | "typed" | { context: number } } {
  const rank = Math.floor(key / 2);
  const variant = Math.floor(h / 100);
  const r = h % 100;
  const reading = r === READING.TYPED ? ("typed" as const) : r === READING.LITERAL ? ("literal" as const) : { context: r - 1 };
  if (rank === RANK.CODE) return { type: "code", fuzzy: false, variant, reading };
  if (rank === RANK.POSTAL) return { type: "postal_code", fuzzy: false, variant, reading };
  if (rank >= RANK.SUBSTRING) return { type: "substring", fuzzy: false, variant, reading };
  const fuzzy = rank >= RANK.FUZZY;
  // EXACT/CONTEXT_EXACT -> exact, PREFIX/CONTEXT_PREFIX -> prefix, WORD/CONTEXT_WORD -> word
  return { type: TIERS[Math.floor((fuzzy ? rank - RANK.FUZZY : rank) / 2)], fuzzy, variant, reading };
}
