/**
 * Session tokens (HS256 JWT, 7 days, claims id/email/is_admin/iat/exp and a unique jti, `kid` header), email
 * verification tokens (24 h) and password-reset tokens (30 min), the last two each signed with a key
 * derived by HKDF for that purpose alone, so no kind is accepted as another. Verification accepts the
 * current and the previous secret, so JWT_SECRET can be rotated without logging everyone out.
 */
import { errors, jwtVerify, SignJWT } from "jose";
import { hex, sha256 } from "../lib/crypto";
import { ApiError } from "../lib/errors";

export const SESSION_TTL_SECONDS = 7 * 24 * 3600;
/**
 * The portal's session cookie. `__Host-`: the browser keeps it only when Secure, Path=/ and without
 * Domain, so no subdomain can plant or shadow it.
 */
export const SESSION_COOKIE = "__Host-wl_session";
export const VERIFY_TTL_SECONDS = 24 * 3600;
export const RESET_TTL_SECONDS = 30 * 60;
const LABELS = { verify: "wilayah-api email-verification v1", reset: "wilayah-api password-reset v1" } as const;
type Purpose = "session" | keyof typeof LABELS;

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

/**
 * Why a value cannot sign sessions, or null when it can: at least 32 characters and not one repeated
 * pattern (at least 8 different characters; any random hex, base64 or base64url secret has them).
 * The placeholders of .dev.vars.example fail it on purpose.
 */
export function secretProblem(value: string | undefined): string | null {
  if (!value) return "is not set";
  if (value.length < 32) return "is shorter than 32 characters";
  if (new Set(value).size < 8) return "is not random (fewer than 8 different characters)";
  return null;
}

function secrets(env: Env): string[] {
  const current = secretProblem(env.JWT_SECRET);
  if (current) throw new Error(`JWT_SECRET ${current}`);
  // The previous secret still verifies sessions: the same rule, or a weak one would open them all.
  const previous = env.JWT_SECRET_PREVIOUS === undefined || env.JWT_SECRET_PREVIOUS === "" ? null : secretProblem(env.JWT_SECRET_PREVIOUS);
  if (previous) throw new Error(`JWT_SECRET_PREVIOUS ${previous}`);
  return [env.JWT_SECRET, env.JWT_SECRET_PREVIOUS].filter((s): s is string => Boolean(s));
}

async function keyring(env: Env, purpose: Purpose): Promise<Keyring> {
  const keys = await Promise.all(secrets(env).map((s) => (purpose === "session" ? enc.encode(s) : hkdf(s, LABELS[purpose]))));
  const entries = await Promise.all(keys.map(async (key) => [await kidOf(key), key] as const));
  return { current: { kid: entries[0][0], key: entries[0][1] }, all: new Map(entries) };
}

async function verify(env: Env, purpose: Purpose, token: string) {
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

/**
 * A session token. `notBefore` is the account's session epoch: tokens issued before it are refused,
 * so a token issued in the second the epoch was raised is dated at the epoch (at most a second ahead).
 */
export async function signSession(env: Env, claims: SessionClaims, notBefore = 0): Promise<string> {
  const { current } = await keyring(env, "session");
  const iat = Math.max(Math.floor(Date.now() / 1000), notBefore);
  // `jti`: two sessions of one account issued in the same second are still two tokens, so a logout ends only its own.
  return new SignJWT({ id: claims.id, email: claims.email, is_admin: claims.is_admin })
    .setProtectedHeader({ alg: "HS256", typ: "JWT", kid: current.kid })
    .setJti(crypto.randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + SESSION_TTL_SECONDS)
    .sign(current.key);
}

/** Clock differences between machines that still count as "now" for `iat`. */
const CLOCK_SKEW_SECONDS = 60;

/**
 * A session token's claims, once its signature is good and its times are sane: `exp` and `iat`
 * present, `iat` not in the future, and a lifetime (`exp - iat`) of at most 7 days, so even a
 * correctly signed token can never be made to live longer than a session does.
 */
export async function verifySession(env: Env, token: string): Promise<SessionClaims & { iat: number; exp: number }> {
  try {
    const { payload } = await verify(env, "session", token);
    if (typeof payload.id !== "string" || typeof payload.email !== "string" || payload.purpose !== undefined) throw new Error("claims");
    const { iat, exp } = payload;
    if (typeof iat !== "number" || typeof exp !== "number") throw new Error("times");
    if (iat > Date.now() / 1000 + CLOCK_SKEW_SECONDS || exp - iat > SESSION_TTL_SECONDS) throw new Error("times");
    return { id: payload.id, email: payload.email, is_admin: payload.is_admin === true, iat, exp };
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

/** A password-reset token: its own purpose key, 30 minutes, naming the reset (`jti`) that makes it single-use. */
export async function signReset(env: Env, userId: string, resetId: string): Promise<string> {
  const { current } = await keyring(env, "reset");
  return new SignJWT({ purpose: "reset-password" })
    .setProtectedHeader({ alg: "HS256", kid: current.kid })
    .setSubject(userId)
    .setJti(resetId)
    .setIssuedAt()
    .setExpirationTime(`${RESET_TTL_SECONDS}s`)
    .sign(current.key);
}

/** The user and reset a reset token names, or null (bad signature, other purpose, expired). */
export async function verifyReset(env: Env, token: string): Promise<{ userId: string; resetId: string } | null> {
  try {
    const { payload } = await verify(env, "reset", token);
    if (payload.purpose !== "reset-password" || typeof payload.sub !== "string" || typeof payload.jti !== "string") return null;
    return { userId: payload.sub, resetId: payload.jti };
  } catch {
    return null;
  }
}
