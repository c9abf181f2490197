/**
 * API key secrets: `wk_live_` + 32 base64url characters (192 random bits). Only the SHA-256 of the
 * whole secret is stored. Pure WebCrypto, so the dev script (Node) uses the same code.
 */
export const KEY_PREFIX = "wk_live_";
const RANDOM_BYTES = 24;
const KEY_PATTERN = /^wk_live_[A-Za-z0-9_-]{32}$/;

function base64url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export function generateKeySecret(): string {
  return KEY_PREFIX + base64url(crypto.getRandomValues(new Uint8Array(RANDOM_BYTES)));
}

export function isWellFormedKey(secret: string): boolean {
  return KEY_PATTERN.test(secret);
}

export async function hashKeySecret(secret: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What the owner is shown later: the prefix with the first characters, and the last four. */
export function displayParts(secret: string): { prefix: string; last4: string } {
  return { prefix: secret.slice(0, KEY_PREFIX.length + 4), last4: secret.slice(-4) };
}

export function newId(prefix: "key" | "user" | "inv" | "sub"): string {
  return `${prefix}_${base64url(crypto.getRandomValues(new Uint8Array(12)))}`;
}
