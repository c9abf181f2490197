/**
 * Kemendagri region codes. Pure functions shared by the Worker and the seed build
 * (scripts import this file directly, so it imports nothing).
 */
export const LEVELS = ["provinsi", "kabupaten", "kecamatan", "kelurahan"] as const;
export type Level = (typeof LEVELS)[number];

/** Digits per segment: 32 . 73 . 09 . 1001 */
const SEGMENT_LENGTHS = [2, 2, 2, 4];
const DOTTED = /^\d{2}(\.\d{2}(\.\d{2}(\.\d{4})?)?)?$/;
const UNDOTTED = /^(\d{2}|\d{4}|\d{6}|\d{10})$/;

/** Characters of a dotted id of each level (32, 32.73, 32.73.09, 32.73.09.1001): a code's prefix of this length is its region at that level. */
const DOTTED_LENGTH: Record<Level, number> = { provinsi: 2, kabupaten: 5, kecamatan: 8, kelurahan: 13 };

/**
 * Canonical dotted id for a code given dotted (`32.73`) or undotted (`3273`), or null when the input
 * is not a well-formed code of any level.
 */
export function toDottedId(input: string): string | null {
  const s = input.trim();
  if (DOTTED.test(s)) return s;
  if (!UNDOTTED.test(s)) return null;
  const parts: string[] = [];
  let at = 0;
  for (const len of SEGMENT_LENGTHS) {
    if (at >= s.length) break;
    parts.push(s.slice(at, at + len));
    at += len;
  }
  return parts.join(".");
}

const LEVEL_OF_LENGTH: Record<number, Level> = Object.fromEntries(LEVELS.map((level) => [DOTTED_LENGTH[level], level]));

/** The level a well-formed dotted id belongs to (told by its length: the seed build asks it of every code of every edition). */
export function levelOf(dottedId: string): Level {
  return LEVEL_OF_LENGTH[dottedId.length];
}

/** Whether a well-formed dotted id is a region of `level` or one inside it: 32.73.09 is below kabupaten, 32 is not. */
export function isAtOrBelow(dottedId: string, level: Level): boolean {
  return LEVELS.indexOf(levelOf(dottedId)) >= LEVELS.indexOf(level);
}

/**
 * The region at `level` that a well-formed dotted id lies in, itself at its own level:
 * `parentAt("32.73.09.1001", "kecamatan")` is 32.73.09, its kecamatan. An id above `level` has no
 * region there and comes back as it is (callers that must tell use `isAtOrBelow` first).
 */
export function parentAt(dottedId: string, level: Level): string {
  return dottedId.slice(0, DOTTED_LENGTH[level]);
}

export function undotted(dottedId: string): string {
  return dottedId.replaceAll(".", "");
}
