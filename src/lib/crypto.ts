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

/**
 * A UUID version 7 (RFC 9562): the first 48 bits are the time in epoch milliseconds, the rest
 * (but the version and variant bits) random: 74 random bits, unique enough for a request id, and
 * ids made later sort after. The request log keeps a call under its time, so a request id pasted
 * from an error answer is found by its own time, with no index of ids to write on every call.
 */
export function timeOrderedUuid(now = Date.now()): string {
  const b = randomBytes(16);
  let t = now;
  for (let i = 5; i >= 0; i--) {
    b[i] = t % 256;
    t = Math.floor(t / 256);
  }
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The time (epoch ms) a UUID version 7 was made at; undefined for anything else (an older random id, a typo). */
export function uuidTime(id: string): number | undefined {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id)) return undefined;
  return Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
}
