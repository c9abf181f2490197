/**
 * Encodings, digests, ids and constant-time comparison: the bottom of the stack, WebCrypto only and
 * importing nothing, so the Worker, the tests and the Node scripts (scripts/*.ts) share this file.
 */
const enc = new TextEncoder();

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Lower-case hex (runs on every API key check: a table, not a spread and a map per byte). */
export function hex(bytes: Uint8Array): string {
  let out = "";
  for (let i = 0; i < bytes.length; i++) out += HEX[bytes[i]];
  return out;
}

export function base64(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

export function fromBase64(s: string): Uint8Array {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}

export function base64url(bytes: Uint8Array): string {
  return base64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

export function randomBytes(n: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(n));
}

export async function sha256(data: string | Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", typeof data === "string" ? enc.encode(data) : data));
}

export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  return hex(await sha256(data));
}

export async function hmacSha256Hex(key: string, message: string): Promise<string> {
  const k = await crypto.subtle.importKey("raw", enc.encode(key), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", k, enc.encode(message))));
}

/**
 * Constant-time equality (Workers' `crypto.subtle.timingSafeEqual`). Lengths are not secret here:
 * every caller compares values of a fixed, public length (digests, signatures).
 */
export function timingSafeEqual(a: string | Uint8Array, b: string | Uint8Array): boolean {
  const x = typeof a === "string" ? enc.encode(a) : a;
  const y = typeof b === "string" ? enc.encode(b) : b;
  return x.byteLength === y.byteLength && crypto.subtle.timingSafeEqual(x, y);
}

export type IdPrefix = "key" | "user" | "inv" | "sub" | "wh" | "msg" | "job" | "rpt";

/** A record id: its kind and 96 random bits, `key_3fJ...`. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${base64url(randomBytes(12))}`;
}
