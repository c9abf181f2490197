/**
 * Search normalisation, used on both sides: by the seed build for the indexed terms and by the
 * Worker for the query, so both always agree. Case- and accent-insensitive; every other character
 * (quotes, %, _, *, operators) is kept and matched literally.
 */
/** Separates a region's spellings in the indexed `terms` column; normalised text never contains it. */
export const TERM_SEPARATOR = "\u001f";

/** Printable ASCII and ASCII white space: nothing to decompose, no marks, no control character left after the spaces are folded. */
const PLAIN = /^[\x20-\x7e\t\n\v\f\r]*$/;

export function normalizeSearchText(input: string): string {
  // Most names and addresses are plain ASCII: the same result without NFKD and the Unicode property
  // scans, which were a fifth of an address batch's own time (a CPU profile of resolveAddresses).
  if (PLAIN.test(input)) return input.replace(/`/g, "'").toLowerCase().replace(/\s+/g, " ").trim();
  return input
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "") // combining marks: é -> e
    .replace(/[\u2018\u2019\u02BC\u0060]/g, "'") // typographic apostrophes -> '
    .toLowerCase()
    .replace(/\s+/g, " ")
    .replace(/\p{Cc}/gu, "") // control characters: never in names; U+001F separates indexed terms
    .trim();
}
