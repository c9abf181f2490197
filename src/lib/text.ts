/** Rules for text people type, shared by every surface that takes it (REST bodies, portal forms). */
import { z } from "zod";

/**
 * Control characters (NUL, newlines, escapes) and the invisible bidirectional controls that can
 * make text shown to others read differently from what it is (U+202E turns "gpj.exe" around).
 */
const UNSAFE_TEXT = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** Text people name things with (user, key, reasons): trimmed, `min`..`max` characters, nothing invisible that changes how it reads. */
export const displayText = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min, `${min} to ${max} characters`)
    .max(max, `${min} to ${max} characters`)
    .refine((s) => !UNSAFE_TEXT.test(s), "must not contain control characters or bidirectional overrides");

const UNSAFE_TEXT_ALL = new RegExp(UNSAFE_TEXT.source, "gu");

/**
 * Text we did not ask the person for (a name from a Google or GitHub profile) made to follow
 * `displayText(1, max)`: what it forbids removed, spaces joined, cut to `max` characters as that
 * rule counts them (UTF-16 units), never inside a character; `fallback` when nothing is left.
 */
export function toDisplayText(raw: string, max: number, fallback: string): string {
  let out = "";
  for (const ch of raw.replace(UNSAFE_TEXT_ALL, " ").replace(/\s+/g, " ").trim()) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out.trim() || fallback;
}

/**
 * Characters no official name may hold: control characters (\p{Cc}), format characters (\p{Cf}:
 * zero-width spaces and joiners, word joiners, soft hyphens, every bidirectional mark and override)
 * and line or paragraph separators. They are invisible, so `Cihapit\u200b` reads as `Cihapit` to the
 * admin who accepts it and then no longer equals the name it claims to be.
 */
const NOT_IN_A_NAME = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

/**
 * Why `name` (NFC-normalised already) cannot be an official name, or null: the
 * character found, by its code point, so a refusal can say what to remove. Shared by the reports
 * (REST and portal), `corrections:pull`, the seed build and `edition:add`.
 */
export function nameProblem(name: string): string | null {
  const m = NOT_IN_A_NAME.exec(name);
  if (!m) return null;
  const cp = m[0].codePointAt(0) ?? 0;
  return `holds the invisible character U+${cp.toString(16).toUpperCase().padStart(4, "0")} (control, format or bidirectional): type the name again without it`;
}

/** An official name or a value that becomes one (reports, their review): NFC, trimmed, `min`..`max` characters, nothing invisible. */
export const nameText = (min: number, max: number) =>
  z
    .string()
    .normalize("NFC")
    .trim()
    .min(min, `${min} to ${max} characters`)
    .max(max, `${min} to ${max} characters`)
    .refine((s) => nameProblem(s) === null, { error: (i) => nameProblem(String(i.input)) ?? "invalid" });
