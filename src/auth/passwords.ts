/**
 * Password hashing: PBKDF2-SHA256 through WebCrypto. 100,000 iterations is the most deployed
 * Workers allow (local workerd accepts more, so a test pins the number). The stored string names
 * algorithm and parameters, `pbkdf2-sha256$<iterations>$<salt b64>$<hash b64>`, so it can be upgraded.
 */
import { base64, fromBase64, randomBytes, timingSafeEqual } from "../lib/crypto";

export const PBKDF2_ITERATIONS = 100_000;
const SALT_BYTES = 16;
const HASH_BITS = 256;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  return new Uint8Array(await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, HASH_BITS));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${base64(salt)}$${base64(await derive(password, salt, PBKDF2_ITERATIONS))}`;
}

/** A hash of no one's password: verifying against it costs the same as a real check. */
const DUMMY_HASH = `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${base64(new Uint8Array(SALT_BYTES))}$${base64(new Uint8Array(HASH_BITS / 8))}`;

/**
 * Constant-time check. `stored` undefined (unknown email) still spends one derivation, so timing
 * does not tell which emails exist. Unusable hashes (e.g. "!") never match.
 */
export async function verifyPassword(password: string, stored: string | undefined): Promise<boolean> {
  const parts = (stored ?? DUMMY_HASH).split("$");
  const usable = parts.length === 4 && parts[0] === "pbkdf2-sha256";
  const [, iterations, salt, hash] = usable ? parts : DUMMY_HASH.split("$");
  const expected = fromBase64(hash);
  const actual = await derive(password, fromBase64(salt), Number(iterations));
  const same = timingSafeEqual(actual, expected);
  return same && usable && stored !== undefined;
}

/** Whether a stored hash was made with other parameters than new ones are: it is then rehashed at the next login. */
export function needsRehash(stored: string): boolean {
  const parts = stored.split("$");
  return parts.length === 4 && parts[0] === "pbkdf2-sha256" && Number(parts[1]) !== PBKDF2_ITERATIONS;
}
