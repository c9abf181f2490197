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

/** The level a well-formed dotted id belongs to. */
export function levelOf(dottedId: string): Level {
  return LEVELS[dottedId.split(".").length - 1];
}

export function undotted(dottedId: string): string {
  return dottedId.replaceAll(".", "");
}
