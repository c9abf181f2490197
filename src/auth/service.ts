/** Accounts: registration, login, email verification. Knows nothing of HTTP. */
import { primaryDb } from "../db/client";
import type { UserRow } from "../db/schema";
import { newId } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { throttle } from "../lib/throttle";
import { challengeRequired, checkChallenge } from "./challenge";
import { mailerFor } from "./mailer";
import { providerEnabled } from "./oauth";
import { hashPassword, verifyPassword } from "./passwords";
import { claimUnverifiedAccount, findUserByEmail, findUserById, insertUser, markEmailVerified } from "./queries";
import { signSession, signVerification, verifySession, verifyVerification } from "./tokens";
import { normalizeEmail } from "./users";

/** Where a request comes from: for throttles, the challenge and links in emails. */
export type Origin = { ip: string | undefined; apiBaseUrl: string };

const AUTH_PERIOD_SECONDS = 60;

export function publicConfig(env: Env) {
  return {
    challenge_site_key: env.TURNSTILE_SITE_KEY,
    challenge_required: challengeRequired(env),
    google_oauth_enabled: providerEnabled(env, "google"),
    github_oauth_enabled: providerEnabled(env, "github"),
  };
}

const session = (env: Env, u: UserRow) => signSession(env, { id: u.id, email: u.email, is_admin: u.isAdmin });

async function sendVerification(env: Env, user: { id: string; email: string }, apiBaseUrl: string): Promise<boolean> {
  const token = await signVerification(env, user.id, user.email);
  const link = `${apiBaseUrl}/auth/verify-email?token=${encodeURIComponent(token)}`;
  return mailerFor(env).send({
    to: user.email,
    subject: "Verify your email for Wilayah API",
    text: `Open this link to verify your email address (valid for 24 hours):\n\n${link}\n\nIf you did not sign up for Wilayah API, ignore this message.`,
  });
}

export async function register(env: Env, input: { email: string; password: string; name: string; challengeToken?: string }, origin: Origin) {
  await throttle(env.AUTH_LIMITER, `register:${origin.ip ?? "unknown"}`, AUTH_PERIOD_SECONDS);
  await checkChallenge(env, input.challengeToken, origin.ip);
  const email = normalizeEmail(input.email);
  const user = { id: newId("user"), email, name: input.name.trim(), passwordHash: await hashPassword(input.password), createdAt: Date.now() };
  if (!(await insertUser(primaryDb(env), user))) throw new ApiError("EMAIL_TAKEN", "An account with this email already exists. Log in instead.");
  // A failed send never fails registration; the user can ask for another message.
  const sent = await sendVerification(env, user, origin.apiBaseUrl).catch(() => false);
  const token = await signSession(env, { id: user.id, email, is_admin: false });
  return { data: { id: user.id, email, email_verified: false }, email_verification_sent: sent, token };
}

export async function login(env: Env, input: { email: string; password: string; challengeToken?: string }, origin: Origin) {
  await throttle(env.AUTH_LIMITER, `login:${origin.ip ?? "unknown"}`, AUTH_PERIOD_SECONDS);
  await checkChallenge(env, input.challengeToken, origin.ip);
  const user = await findUserByEmail(primaryDb(env), normalizeEmail(input.email));
  // Unknown email and wrong password take the same path and the same time.
  const ok = await verifyPassword(input.password, user?.passwordHash);
  if (!user || !ok) throw new ApiError("INVALID_CREDENTIALS", "Email or password is wrong.");
  if (user.status === "suspended") throw new ApiError("ACCOUNT_SUSPENDED", "This account is suspended. Contact support.");
  return { user, token: await session(env, user) };
}

/** The portal this Worker serves, on the same origin (a relative URL), unless DASHBOARD_URL names another. */
export const PORTAL_PATH = "/portal";
export function dashboardBase(env: Env): string {
  return env.DASHBOARD_URL.replace(/\/$/, "") || PORTAL_PATH;
}

/** Where to send the browser after a verification link was opened. */
export async function verifyEmail(env: Env, token: string | undefined): Promise<string> {
  const base = dashboardBase(env);
  const result = token ? await verifyVerification(env, token) : ({ ok: false, reason: "invalid" } as const);
  if (!result.ok) return `${base}/?verify_error=${result.reason}`;
  const db = primaryDb(env);
  const user = await findUserById(db, result.userId);
  if (!user || user.email !== result.email) return `${base}/?verify_error=invalid`;
  if (!user.emailVerified) await markEmailVerified(db, user.id);
  return `${base}/?verified=1`;
}

const RESEND_SECONDS = 60;

export async function resendVerification(env: Env, user: UserRow, origin: Origin) {
  if (user.emailVerified) throw new ApiError("ALREADY_VERIFIED", "This email address is already verified.");
  const kvKey = `resend:${user.id}`;
  const last = await env.KV.get(kvKey);
  if (last) {
    const wait = Math.max(1, RESEND_SECONDS - Math.floor((Date.now() - Number(last)) / 1000));
    throw new ApiError("RATE_LIMITED", `One verification message per minute. Try again in ${wait} seconds.`, { headers: { "retry-after": String(wait) } });
  }
  await env.KV.put(kvKey, String(Date.now()), { expirationTtl: RESEND_SECONDS });
  return { data: { email_verification_sent: await sendVerification(env, user, origin.apiBaseUrl) } };
}

/**
 * The user a request's `Authorization: Bearer <session JWT>` header speaks for, read from D1 each
 * time (suspension and admin rights apply at once). The scheme name is case-insensitive (RFC 7235).
 */
export async function userFromAuthorization(env: Env, header: string | undefined): Promise<UserRow> {
  if (!header) throw new ApiError("MISSING_TOKEN", "Send a session token: Authorization: Bearer <token> (from /auth/login).");
  const match = /^Bearer +([A-Za-z0-9_\-.]+)$/i.exec(header.trim());
  if (!match) throw new ApiError("UNAUTHORIZED", "Malformed Authorization header; expected: Bearer <token>.");
  return userFromSession(env, match[1]);
}

/** The user a session token (the same JWT, from a header or the portal's cookie) speaks for, with the same checks. */
export async function userFromSession(env: Env, token: string): Promise<UserRow> {
  const claims = await verifySession(env, token);
  const user = await findUserById(primaryDb(env), claims.id);
  if (!user) throw new ApiError("INVALID_TOKEN", "The account of this token no longer exists.");
  if (user.status === "suspended") throw new ApiError("ACCOUNT_SUSPENDED", "This account is suspended. Contact support.");
  return user;
}

/**
 * Sign-in with an external identity provider (Google, GitHub) whose answer said the email is
 * verified (the caller checks that; an unverified email never reaches here). Signs in the user
 * who has the email, or creates one with email_verified true and no usable password.
 */
export async function signInWithVerifiedEmail(env: Env, input: { email: string; name: string }) {
  const db = primaryDb(env);
  const email = normalizeEmail(input.email);
  let user = await findUserByEmail(db, email);
  if (!user) {
    const row = {
      id: newId("user"),
      email,
      name: input.name.trim().slice(0, 100) || email.split("@")[0],
      passwordHash: "!",
      emailVerified: true,
      createdAt: Date.now(),
    };
    if (!(await insertUser(db, row))) user = await findUserByEmail(db, email);
    else user = await findUserById(db, row.id);
  }
  if (!user) throw new ApiError("INTERNAL_ERROR", "The account could not be created.");
  if (user.status === "suspended") throw new ApiError("ACCOUNT_SUSPENDED", "This account is suspended. Contact support.");
  // The provider vouches for the email. An account registered with it but never verified is claimed:
  // verified, and its password (set by someone who never proved the email) no longer works.
  if (!user.emailVerified) {
    await claimUnverifiedAccount(db, user.id);
    user = { ...user, emailVerified: true, passwordHash: "!" };
  }
  return { user, token: await session(env, user) };
}
