/**
 * Accounts: registration, login, sessions, email verification, password recovery. Knows nothing of
 * HTTP: it returns what happened (a user, a token, whether a mail went out) or throws an ApiError,
 * and the surfaces (routes/auth.ts, the portal) shape the answer; the session token comes to it
 * read from wherever the surface carries it (auth/guards.ts reads the Authorization header).
 */
import { audit, auditIf, type RequestMeta } from "../audit/service";
import { primaryDb } from "../db/client";
import type { UserRow } from "../db/schema";
import { newId, sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { errorText, log } from "../lib/log";
import { toDisplayText } from "../lib/text";
import { throttle } from "../lib/throttle";
import { isBreachedPassword } from "./breached";
import { challengeRequired, checkChallenge } from "./challenge";
import { NAME_MAX } from "./inputs";
import { type MailLang, mailCopy } from "./mail-copy";
import { mailerFor } from "./mailer";
import { providerEnabled } from "./oauth";
import { hashPassword, needsRehash, verifyPassword } from "./passwords";
import {
  claimUnverifiedAccount,
  claimVerificationSend,
  clearLoginFailures,
  countLoginAttempt,
  endSessions,
  findSessionUser,
  findUserByEmail,
  findUserById,
  insertResetIfQuiet,
  insertUser,
  loginLock,
  markEmailVerified,
  pruneAuthRows,
  replaceHash,
  resetIsUsable,
  resetPasswordWith,
  resetUsable,
  revokeSessionToken,
  setPassword,
} from "./queries";
import { RESET_TTL_SECONDS, signReset, signSession, signVerification, VERIFY_TTL_SECONDS, verifyReset, verifySession, verifyVerification } from "./tokens";
import { normalizeEmail } from "./users";

/**
 * Where a request comes from: the client IP (throttles, the challenge, the audit trail), this API's
 * origin (links in emails) and the request id (the audit trail).
 */
/** Where a request comes from; `lang`: the page's language (the portal), which the emails it sends are written in (English without it). */
export type Origin = RequestMeta & { apiBaseUrl: string; lang?: MailLang };

/**
 * What the auth service needs done to an account it does not own: revoking the keys created before
 * a takeover, and replacing a stale unverified account (its rows in other features' tables). The
 * surfaces pass in the one src/admin/lifecycle.ts makes, so auth never imports the features above it.
 */
export type AccountHooks = {
  revokeKeysBefore(env: Env, userId: string, before: number, meta: RequestMeta): Promise<number>;
  replaceStaleAccount(env: Env, staleId: string, before: number, insert: Parameters<typeof insertUser>[1]): Promise<boolean>;
};

const AUTH_PERIOD_SECONDS = 60;
/** An unverified account this old releases its email to a new registration. */
export const STALE_UNVERIFIED_MS = 7 * 24 * 3600 * 1000;

export function publicConfig(env: Env) {
  return {
    challenge_site_key: env.TURNSTILE_SITE_KEY,
    challenge_required: challengeRequired(env),
    google_oauth_enabled: providerEnabled(env, "google"),
    github_oauth_enabled: providerEnabled(env, "github"),
  };
}

const nowSeconds = () => Math.floor(Date.now() / 1000);
const session = (env: Env, u: UserRow) => signSession(env, { id: u.id, email: u.email, is_admin: u.isAdmin }, u.sessionEpoch);

/** A new password: the length rules are the input schema's; here, the breached-password list. */
async function acceptablePassword(env: Env, password: string): Promise<void> {
  if (await isBreachedPassword(env, password)) {
    throw new ApiError("VALIDATION_ERROR", "This password appears in a list of breached passwords. Choose another.", {
      details: [{ path: "password", message: "appears in a list of breached passwords; choose another" }],
    });
  }
}

async function sendVerification(env: Env, user: { id: string; email: string }, origin: Origin): Promise<boolean> {
  const token = await signVerification(env, user.id, user.email);
  const link = `${origin.apiBaseUrl}/auth/verify-email?token=${encodeURIComponent(token)}`;
  return mailerFor(env).send({ to: user.email, ...mailCopy.verify(origin.lang ?? "en", link, VERIFY_TTL_SECONDS * 1000) });
}

/** A new account (its email not verified yet), whether the verification mail went out, and a session token. */
export async function register(
  env: Env,
  input: { email: string; password: string; name: string; challengeToken?: string },
  origin: Origin,
  hooks: AccountHooks,
) {
  await throttle(env.AUTH_LIMITER, `register:${origin.ip ?? "unknown"}`, AUTH_PERIOD_SECONDS);
  await checkChallenge(env, input.challengeToken, origin.ip, new URL(origin.apiBaseUrl).hostname);
  await acceptablePassword(env, input.password);
  const email = normalizeEmail(input.email);
  const now = Date.now();
  const user = {
    id: newId("user"),
    email,
    name: input.name.trim(),
    passwordHash: await hashPassword(input.password),
    createdAt: now,
    ownerProven: false,
  };
  const db = primaryDb(env);
  if (!(await insertUser(db, user))) {
    // An unverified account older than a week releases its email: the new registration replaces it whole.
    const existing = await findUserByEmail(db, email);
    const before = now - STALE_UNVERIFIED_MS;
    const stale = existing && !existing.emailVerified && existing.createdAt < before;
    if (!stale || !(await hooks.replaceStaleAccount(env, existing.id, before, user))) {
      throw new ApiError("EMAIL_TAKEN", "An account with this email already exists. Log in instead.");
    }
    await audit(env, origin, { event: "account_replaced", actorId: user.id, subjectId: user.id, detail: { replaced_user_id: existing.id } });
  }
  // A failed send never fails registration; the user can ask for another message.
  const sent = await sendVerification(env, user, origin).catch(() => false);
  const token = await signSession(env, { id: user.id, email, is_admin: false });
  return { id: user.id, email, emailVerificationSent: sent, token };
}

// ---------------------------------------------------------------- login and its back-off

/** Failed logins per address: from the 5th in 15 minutes, a lock of 30 s doubling per further failure, at most 15 minutes. */
const LOCK = { windowMs: 15 * 60 * 1000, threshold: 5, baseMs: 30_000, maxMs: 15 * 60 * 1000 };
const emailKey = (email: string) => sha256Hex(`login:${email}`);

/**
 * Counts the attempt against the address first, then refuses it if the address is locked: the same
 * answer whether an account has it or not (the lock is kept per address), and also when the
 * password would be right. Counting before the (slow) password check is what keeps parallel
 * guesses within the lock's allowance.
 */
async function countAttempt(env: Env, key: string, origin: RequestMeta, subjectId: string | null, email: string): Promise<void> {
  const db = primaryDb(env);
  if (await countLoginAttempt(db, key, Date.now(), LOCK)) return;
  const lock = await loginLock(db, key);
  const wait = Math.max(1, lock ? Math.ceil((lock.lockedUntil - Date.now()) / 1000) : 1);
  await audit(env, origin, { event: "login_locked", subjectId, detail: { email, retry_after: wait } });
  throw new ApiError("RATE_LIMITED", `Too many failed logins for this email. Try again in ${wait} seconds.`, { headers: { "retry-after": String(wait) } });
}

/** Checks a user's password, the attempt counted against the address's back-off first; rehashes on success when the parameters changed. */
async function checkPassword(env: Env, user: UserRow | undefined, email: string, password: string, origin: RequestMeta): Promise<boolean> {
  const db = primaryDb(env);
  const key = await emailKey(email);
  await countAttempt(env, key, origin, user?.id ?? null, email);
  // Unknown email and wrong password take the same path and the same time.
  const ok = await verifyPassword(password, user?.passwordHash);
  if (!user || !ok) {
    await audit(env, origin, { event: "login_failed", actorId: user?.id ?? null, subjectId: user?.id ?? null, detail: { email } });
    return false;
  }
  // The attempt was counted before the check; a right password clears the count. When that write
  // fails the login still goes on: refusing the right password with a 503 would leave the attempt
  // counted, and an outage would end in "too many failed logins" for someone who typed it right.
  // The count left behind ends with the next success or its window.
  await clearLoginFailures(db, key).catch((e) => log.warn("login_failures_not_cleared", { error: errorText(e) }));
  if (needsRehash(user.passwordHash)) await replaceHash(db, user.id, user.passwordHash, await hashPassword(password));
  return true;
}

export async function login(env: Env, input: { email: string; password: string; challengeToken?: string }, origin: Origin) {
  await throttle(env.AUTH_LIMITER, `login:${origin.ip ?? "unknown"}`, AUTH_PERIOD_SECONDS);
  await checkChallenge(env, input.challengeToken, origin.ip, new URL(origin.apiBaseUrl).hostname);
  const email = normalizeEmail(input.email);
  const user = await findUserByEmail(primaryDb(env), email);
  if (!(await checkPassword(env, user, email, input.password, origin)) || !user) throw new ApiError("INVALID_CREDENTIALS", "Email or password is wrong.");
  if (user.status === "suspended") throw new ApiError("ACCOUNT_SUSPENDED", "This account is suspended. Contact support.");
  await audit(env, origin, { event: "login_succeeded", actorId: user.id, subjectId: user.id });
  return { user, token: await session(env, user) };
}

// ---------------------------------------------------------------- ending sessions

/** Ends one session token (logout). */
export async function logout(env: Env, user: UserRow, token: string, origin: RequestMeta): Promise<void> {
  const claims = await verifySession(env, token);
  await revokeSessionToken(primaryDb(env), { tokenHash: await sha256Hex(token), userId: user.id, expiresAt: claims.exp * 1000 });
  await audit(env, origin, { event: "logout", actorId: user.id, subjectId: user.id });
}

/** Ends every session of the user, this one included. */
export async function logoutEverywhere(env: Env, user: UserRow, origin: RequestMeta): Promise<void> {
  await endSessions(primaryDb(env), user.id, nowSeconds());
  await audit(env, origin, { event: "logout_all", actorId: user.id, subjectId: user.id });
}

/** A new password for a signed-in user who knows the current one: every other session ends; the caller gets a new token. */
export async function changePassword(env: Env, user: UserRow, input: { current_password: string; new_password: string }, origin: RequestMeta) {
  if (!(await checkPassword(env, user, user.email, input.current_password, origin))) {
    throw new ApiError(
      "INVALID_CREDENTIALS",
      "The current password is wrong. (An account made with Google or GitHub has none: use forgot-password to set one.)",
    );
  }
  await acceptablePassword(env, input.new_password);
  const after = await setPassword(primaryDb(env), user.id, await hashPassword(input.new_password), { nowSeconds: nowSeconds() });
  if (!after) throw new ApiError("INVALID_TOKEN", "The account of this token no longer exists.");
  await audit(env, origin, { event: "password_changed", actorId: user.id, subjectId: user.id });
  return { user: after, token: await session(env, after) };
}

// ---------------------------------------------------------------- recovery

/** The portal this Worker serves, on the same origin (a relative URL), unless DASHBOARD_URL names another. */
export const PORTAL_PATH = "/portal";
export function dashboardBase(env: Env): string {
  return env.DASHBOARD_URL.replace(/\/$/, "") || PORTAL_PATH;
}

/** Reset mails to one account: at most one a minute and RESET_PER_DAY in 24 hours (a mailbox is not a target). */
const RESET_RULE = { minGapMs: 60_000, perDay: 5 };

/**
 * Sends a reset link when an account has the email (see RESET_RULE). Returns before the account
 * is even looked up (the lookup and the mail run in `defer`, after the answer), so that the
 * surfaces answer the same words in the same time whether an account has the email or not.
 */
export async function forgotPassword(
  env: Env,
  input: { email: string; challengeToken?: string },
  origin: Origin,
  defer: (work: Promise<unknown>) => void,
): Promise<void> {
  await throttle(env.AUTH_LIMITER, `forgot:${origin.ip ?? "unknown"}`, AUTH_PERIOD_SECONDS);
  await checkChallenge(env, input.challengeToken, origin.ip, new URL(origin.apiBaseUrl).hostname);
  const email = normalizeEmail(input.email);
  defer(sendReset(env, email, origin, Date.now()).catch((e) => log.error("password_reset_failed", { error: errorText(e) })));
}

async function sendReset(env: Env, email: string, origin: Origin, now: number) {
  const db = primaryDb(env);
  const user = await findUserByEmail(db, email);
  if (!user) return;
  const reset = { id: crypto.randomUUID(), userId: user.id, createdAt: now, expiresAt: now + RESET_TTL_SECONDS * 1000 };
  if (!(await insertResetIfQuiet(db, reset, RESET_RULE))) return;
  const token = await signReset(env, user.id, reset.id);
  const base = env.DASHBOARD_URL.replace(/\/$/, "") || `${origin.apiBaseUrl}${PORTAL_PATH}`;
  const sent = await mailerFor(env)
    .send({ to: user.email, ...mailCopy.reset(origin.lang ?? "en", `${base}/reset?token=${encodeURIComponent(token)}`, RESET_TTL_SECONDS * 1000) })
    .catch(() => false);
  await audit(env, origin, { event: "password_reset_requested", subjectId: user.id, detail: { sent } });
}

/**
 * Sets a new password through an emailed reset link (single use). Every session ends, and the email
 * counts as verified (the link reached it). When the account was set up by someone who never proved
 * they own the email (a pre-registration), this is a takeover: the keys created before it are
 * revoked too (`takeover`, `keysRevoked`).
 */
export async function resetPassword(env: Env, input: { token: string; password: string }, origin: RequestMeta, hooks: AccountHooks) {
  const claims = await verifyReset(env, input.token);
  const invalid = () => new ApiError("INVALID_RESET_TOKEN", "This reset link is not valid, has expired or was already used. Ask for a new one.");
  if (!claims) throw invalid();
  const db = primaryDb(env);
  const user = await findUserById(db, claims.userId);
  if (!user) throw invalid();
  await acceptablePassword(env, input.password);
  const now = Date.now();
  const reset = { id: claims.resetId, userId: user.id, now };
  if (!(await resetIsUsable(db, reset.id, user.id, now))) throw invalid();
  const passwordHash = await hashPassword(input.password);
  // A takeover revokes the keys before the owner is proven (the password set, last): a reset that
  // fails half-way leaves the account unproven and the link unused (it is used up in the batch that
  // sets the password), so the next try takes it over again and finishes what the failed one began.
  // The password, its events and the link's use commit together or not at all.
  const takeover = !user.ownerProven;
  const keysRevoked = takeover ? await hooks.revokeKeysBefore(env, user.id, now, origin) : 0;
  const usable = resetUsable(reset.id, user.id, now);
  const done = await resetPasswordWith(db, reset, passwordHash, nowSeconds(), [
    auditIf(origin, { event: "password_reset", actorId: user.id, subjectId: user.id, detail: { takeover } }, usable),
    ...(takeover
      ? [
          auditIf(
            origin,
            { event: "account_takeover", actorId: user.id, subjectId: user.id, detail: { via: "password_reset", keys_revoked: keysRevoked } },
            usable,
          ),
        ]
      : []),
  ]);
  // Used by another request between the check and the batch: nothing was written by this one.
  if (!done) throw invalid();
  return { takeover, keysRevoked, email: user.email };
}

// ---------------------------------------------------------------- email verification

/** What opening a verification link did: the email is verified, or the link is invalid or expired. */
export type VerifyOutcome = "verified" | "invalid" | "expired";

/**
 * Verifies the email of a verification link's token. `openerId`: the account whose session the
 * opening browser carries, if any; when it is this very account, whoever signed up has proven they
 * read the email (see users.owner_proven).
 */
export async function verifyEmail(env: Env, token: string | undefined, openerId: string | null = null, origin: RequestMeta = {}): Promise<VerifyOutcome> {
  const result = token ? await verifyVerification(env, token) : ({ ok: false, reason: "invalid" } as const);
  if (!result.ok) return result.reason;
  const db = primaryDb(env);
  const user = await findUserById(db, result.userId);
  if (!user || user.email !== result.email) return "invalid";
  const proven = openerId === user.id;
  if (!user.emailVerified || (proven && !user.ownerProven)) {
    await markEmailVerified(db, user.id, proven);
    if (!user.emailVerified) await audit(env, origin, { event: "email_verified", actorId: openerId, subjectId: user.id, detail: { same_browser: proven } });
  }
  return "verified";
}

const RESEND_SECONDS = 60;

/** Sends the verification link again (one a minute): whether the mailer took it. */
export async function resendVerification(env: Env, user: UserRow, origin: Origin): Promise<boolean> {
  if (user.emailVerified) throw new ApiError("ALREADY_VERIFIED", "This email address is already verified.");
  const now = Date.now();
  if (!(await claimVerificationSend(primaryDb(env), user.id, now, RESEND_SECONDS * 1000))) {
    const last = (await findUserById(primaryDb(env), user.id))?.verificationSentAt ?? now;
    const wait = Math.max(1, RESEND_SECONDS - Math.floor((now - last) / 1000));
    throw new ApiError("RATE_LIMITED", `One verification message per minute. Try again in ${wait} seconds.`, { headers: { "retry-after": String(wait) } });
  }
  return sendVerification(env, user, origin);
}

// ---------------------------------------------------------------- who is calling

/**
 * The user a session token (the same JWT, from the Authorization header or the portal's cookie)
 * speaks for, read from D1 each time (suspension and admin rights apply at once): the account
 * exists and is not suspended, the token was not ended by a logout, and it was issued after the
 * account's session epoch (logout everywhere, password change or reset, takeover, suspension, loss
 * of admin rights).
 */
export async function userFromSession(env: Env, token: string): Promise<UserRow> {
  const claims = await verifySession(env, token);
  const row = await findSessionUser(primaryDb(env), claims.id, await sha256Hex(token));
  if (!row) throw new ApiError("INVALID_TOKEN", "The account of this token no longer exists.");
  const { revoked, ...user } = row;
  if (user.status === "suspended") throw new ApiError("ACCOUNT_SUSPENDED", "This account is suspended. Contact support.");
  if (revoked || claims.iat < user.sessionEpoch) throw new ApiError("INVALID_TOKEN", "This session has ended. Log in again.");
  return user;
}

/**
 * Sign-in with an external identity provider (Google, GitHub) whose answer said the email is
 * verified (the caller checks that; an unverified email never reaches here). Signs in the user
 * who has the email, or creates one with email_verified true and no usable password. An account
 * registered with the email by someone who never proved they own it (users.owner_proven false:
 * never verified, or verified by a link opened without that account's session, as the real owner
 * opening a link that arrived unasked) is taken over (`claimed`), as a password reset does: its
 * password stops working, every earlier session ends and the keys made before are revoked.
 */
export async function signInWithVerifiedEmail(env: Env, input: { email: string; name: string }, origin: RequestMeta, hooks: AccountHooks) {
  const db = primaryDb(env);
  const email = normalizeEmail(input.email);
  let user = await findUserByEmail(db, email);
  if (!user) {
    const row = {
      id: newId("user"),
      email,
      name: toDisplayText(input.name, NAME_MAX, email.split("@")[0]),
      passwordHash: "!",
      emailVerified: true,
      ownerProven: true,
      createdAt: Date.now(),
    };
    if (!(await insertUser(db, row))) user = await findUserByEmail(db, email);
    else user = await findUserById(db, row.id);
  }
  if (!user) throw new ApiError("INTERNAL_ERROR", "The account could not be created.");
  if (user.status === "suspended") throw new ApiError("ACCOUNT_SUSPENDED", "This account is suspended. Contact support.");
  let claimed = false;
  let keysRevoked = 0;
  if (!user.ownerProven) {
    // The keys go first, the claim (which makes the owner proven) last, with its event: a sign-in
    // that fails half-way leaves the owner unproven, and the next one finishes it.
    const now = Date.now();
    const id = user.id;
    keysRevoked = await hooks.revokeKeysBefore(env, id, now, origin);
    claimed = await claimUnverifiedAccount(db, id, Math.floor(now / 1000), (condition) =>
      auditIf(origin, { event: "account_takeover", actorId: id, subjectId: id, detail: { via: "oauth", keys_revoked: keysRevoked } }, condition),
    );
    if (!claimed) keysRevoked = 0;
    user = (await findUserById(db, id)) ?? user;
  }
  await audit(env, origin, { event: "login_succeeded", actorId: user.id, subjectId: user.id, detail: { via: "oauth" } });
  return { user, token: await session(env, user), claimed, keysRevoked };
}

/** Cron: ended-session markers past their token's expiry, resets and failure counts older than a day. */
export async function pruneAuthState(env: Env, now = Date.now()): Promise<void> {
  await pruneAuthRows(primaryDb(env), now, 24 * 3600 * 1000);
}
