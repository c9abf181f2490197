/**
 * Session tokens (HS256 JWT, 7 days, claims id/email/is_admin/iat/exp, `kid` header) and email
 * verification tokens (24 h, signed with a key derived by HKDF for that purpose alone, so neither
 * kind is accepted as the other). Verification accepts the current and the previous secret, so
 * JWT_SECRET can be rotated without logging everyone out.
 */
import { errors, jwtVerify, SignJWT } from "jose";
import { hex, sha256 } from "../lib/crypto";
import { ApiError } from "../lib/errors";

export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
export const VERIFY_TTL_SECONDS = 24 * 3600;
const VERIFY_LABEL = "wilayah-api email-verification v1";

export type SessionClaims = { id: string; email: string; is_admin: boolean };

type Keyring = { current: { kid: string; key: Uint8Array }; all: Map<string, Uint8Array> };

const enc = new TextEncoder();

async function kidOf(material: Uint8Array): Promise<string> {
  return hex((await sha256(material)).slice(0, 6));
}

async function hkdf(secret: string, label: string): Promise<Uint8Array> {
  const base = await crypto.subtle.importKey("raw", enc.encode(secret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(32), info: enc.encode(label) }, base, 256);
  return new Uint8Array(bits);
}

/**
 * A key for one purpose only, derived (HKDF) from the current JWT_SECRET, as hex: no other purpose's
 * key, and no session key, can be recovered from it or mistaken for it.
 */
export async function purposeKey(env: Env, label: string): Promise<string> {
  return hex(await hkdf(secrets(env)[0], label));
}

function secrets(env: Env): string[] {
  if (!env.JWT_SECRET || env.JWT_SECRET.length < 32) throw new Error("JWT_SECRET is not set or shorter than 32 characters");
  return [env.JWT_SECRET, env.JWT_SECRET_PREVIOUS].filter((s): s is string => Boolean(s));
}

async function keyring(env: Env, purpose: "session" | "verify"): Promise<Keyring> {
  const keys = await Promise.all(secrets(env).map((s) => (purpose === "session" ? enc.encode(s) : hkdf(s, VERIFY_LABEL))));
  const entries = await Promise.all(keys.map(async (key) => [await kidOf(key), key] as const));
  return { current: { kid: entries[0][0], key: entries[0][1] }, all: new Map(entries) };
}

async function verify(env: Env, purpose: "session" | "verify", token: string) {
  const ring = await keyring(env, purpose);
  return jwtVerify(
    token,
    async (header) => {
      const key = header.kid ? ring.all.get(header.kid) : undefined;
      if (!key) throw new errors.JWSSignatureVerificationFailed();
      return key;
    },
    { algorithms: ["HS256"] },
  );
}

export async function signSession(env: Env, claims: SessionClaims): Promise<string> {
  const { current } = await keyring(env, "session");
  return new SignJWT({ id: claims.id, email: claims.email, is_admin: claims.is_admin })
    .setProtectedHeader({ alg: "HS256", typ: "JWT", kid: current.kid })
    .setIssuedAt()
    .setExpirationTime(`${SESSION_TTL_SECONDS}s`)
    .sign(current.key);
}

/** Clock differences between machines that still count as "now" for `iat`. */
const CLOCK_SKEW_SECONDS = 60;

/**
 * A session token's claims, once its signature is good and its times are sane: `exp` and `iat`
 * present, `iat` not in the future, and a lifetime (`exp - iat`) of at most 7 days, so even a
 * correctly signed token can never be made to live longer than a session does.
 */
export async function verifySession(env: Env, token: string): Promise<SessionClaims> {
  try {
    const { payload } = await verify(env, "session", token);
    if (typeof payload.id !== "string" || typeof payload.email !== "string" || payload.purpose !== undefined) throw new Error("claims");
    const { iat, exp } = payload;
    if (typeof iat !== "number" || typeof exp !== "number") throw new Error("times");
    if (iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS || exp - iat > SESSION_TTL_SECONDS) throw new Error("times");
    return { id: payload.id, email: payload.email, is_admin: payload.is_admin === true };
  } catch {
    throw new ApiError("INVALID_TOKEN", "The bearer token is invalid or has expired. Log in again.");
  }
}

export async function signVerification(env: Env, userId: string, email: string): Promise<string> {
  const { current } = await keyring(env, "verify");
  return new SignJWT({ purpose: "verify-email", email })
    .setProtectedHeader({ alg: "HS256", kid: current.kid })
    .setSubject(userId)
    .setIssuedAt()
    .setExpirationTime(`${VERIFY_TTL_SECONDS}s`)
    .sign(current.key);
}

/** The user id and email a verification token was issued for, or why it cannot be used. */
export async function verifyVerification(
  env: Env,
  token: string,
): Promise<{ ok: true; userId: string; email: string } | { ok: false; reason: "invalid" | "expired" }> {
  try {
    const { payload } = await verify(env, "verify", token);
    if (payload.purpose !== "verify-email" || typeof payload.sub !== "string" || typeof payload.email !== "string") return { ok: false, reason: "invalid" };
    return { ok: true, userId: payload.sub, email: payload.email };
  } catch (e) {
    return { ok: false, reason: e instanceof errors.JWTExpired ? "expired" : "invalid" };
  }
}
