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
