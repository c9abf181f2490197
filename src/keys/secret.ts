/**
 * API key secrets: `wk_live_` (secret keys, for servers) or `wk_pub_` (publishable keys, which may
 * sit in a web page) + 32 base64url characters (192 random bits). Only the SHA-256 of the whole
 * secret is stored. Imported by the dev script (Node) too, hence the `.ts` import.
 */
import { base64url, randomBytes, sha256Hex } from "../lib/crypto.ts";

export type KeyKind = "secret" | "publishable";

export const KEY_PREFIX = "wk_live_";
export const PUBLISHABLE_PREFIX = "wk_pub_";
const PREFIXES: Record<KeyKind, string> = { secret: KEY_PREFIX, publishable: PUBLISHABLE_PREFIX };
const RANDOM_BYTES = 24;
const KEY_PATTERN = /^(wk_live_|wk_pub_)[A-Za-z0-9_-]{32}$/;

export function generateKeySecret(kind: KeyKind = "secret"): string {
  return PREFIXES[kind] + base64url(randomBytes(RANDOM_BYTES));
}

export function isWellFormedKey(secret: string): boolean {
  return KEY_PATTERN.test(secret);
}

export const hashKeySecret = (secret: string): Promise<string> => sha256Hex(secret);

/** What the owner is shown later: the prefix with the first characters, and the last four. */
export function displayParts(secret: string): { prefix: string; last4: string } {
  const prefix = secret.startsWith(PUBLISHABLE_PREFIX) ? PUBLISHABLE_PREFIX : KEY_PREFIX;
  return { prefix: secret.slice(0, prefix.length + 4), last4: secret.slice(-4) };
}
