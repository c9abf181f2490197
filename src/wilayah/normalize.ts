/**
 * Search normalisation, used on both sides: by the seed build for the indexed terms and by the
 * Worker for the query, so both always agree. Case- and accent-insensitive; every other character
 * (quotes, %, _, *, operators) is kept and matched literally.
 */
export function normalizeSearchText(input: string): string {
  return input
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "") // combining marks: é -> e
    .replace(/[\u2018\u2019\u02BC\u0060]/g, "'") // typographic apostrophes -> '
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}
