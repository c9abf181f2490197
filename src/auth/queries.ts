import { and, count, eq, getTableColumns, isNull, lt, type SQL, sql } from "drizzle-orm";
import { batch, type Db } from "../db/client";
import { loginFailures, passwordResets, revokedSessions, type UserRow, users } from "../db/schema";

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return (await db.select().from(users).where(eq(users.email, email)).limit(1))[0];
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];
}

/** Inserts a user; false when the email is taken (the unique index decides, so concurrent sign-ups cannot both win). */
export async function insertUser(db: Db, user: typeof users.$inferInsert): Promise<boolean> {
  try {
    await db.insert(users).values(user);
    return true;
  } catch (e) {
    if (/UNIQUE constraint failed/i.test(String((e as Error)?.cause ?? e))) return false;
    throw e;
  }
}

/** Marks the email verified; `ownerProven` when the link was opened by a session of this very account. */
/** A user row, as a batch statement (after the statements that make room for it). */
export function insertUserStatement(db: Db, user: typeof users.$inferInsert) {
  return db.insert(users).values(user);
}

export async function markEmailVerified(db: Db, id: string, ownerProven: boolean): Promise<void> {
  await db
    .update(users)
    .set(ownerProven ? { emailVerified: true, ownerProven: true } : { emailVerified: true })
    .where(eq(users.id, id))
    .run();
}

/** The SQL that raises a user's session epoch past every token issued so far (`now` in epoch seconds). */
const raisedEpoch = (nowSeconds: number) => sql`max(${users.sessionEpoch}, ${nowSeconds}) + 1`;

/**
 * An identity provider proved the email belongs to whoever signs in: the account becomes verified
 * and its owner proven, a password set before that stops working and every earlier session ends
 * (whoever set them may not own the email: the pre-registration takeover). Only the first claim of
 * an account whose owner was never proven (unverified, or verified by a link opened elsewhere)
 * changes anything, and only it writes what `record` builds (the audit event, in the same batch).
 * True when this call claimed it.
 */
export async function claimUnverifiedAccount(db: Db, id: string, nowSeconds: number, record: (condition: SQL) => SQL): Promise<boolean> {
  const [, claimed] = await batch(db, [
    record(sql`EXISTS (SELECT 1 FROM users WHERE id = ${id} AND owner_proven = 0)`),
    db
      .update(users)
      .set({ emailVerified: true, passwordHash: "!", ownerProven: true, sessionEpoch: raisedEpoch(nowSeconds) })
      .where(and(eq(users.id, id), eq(users.ownerProven, false))),
  ]);
  return claimed.meta.changes === 1;
}

/** Ends every session of a user (tokens issued before now); returns the new epoch. */
export async function endSessions(db: Db, id: string, nowSeconds: number): Promise<number> {
  const r = await db
    .update(users)
    .set({ sessionEpoch: raisedEpoch(nowSeconds) })
    .where(eq(users.id, id))
    .returning({ epoch: users.sessionEpoch });
  return r[0]?.epoch ?? 0;
}

/** A new password hash; every earlier session ends too (returns the row after the change). */
export async function setPassword(db: Db, id: string, passwordHash: string, opts: { nowSeconds: number }) {
  return (
    await db
      .update(users)
      .set({ passwordHash, sessionEpoch: raisedEpoch(opts.nowSeconds) })
      .where(eq(users.id, id))
      .returning()
  )[0];
}

/** The SQL condition "this reset link is still usable" (unused, unexpired), for the statements of its batch. */
export function resetUsable(id: string, userId: string, now: number): SQL {
  return sql`EXISTS (SELECT 1 FROM password_resets WHERE id = ${id} AND user_id = ${userId} AND used_at IS NULL AND expires_at > ${now})`;
}

/**
 * A password reset through an emailed link, all or nothing in one batch: `records` (the audit
 * events, written only while the link is usable: `resetUsable`), the new hash (every earlier session
 * ended, the email verified and its owner proven), then the link used up with every other open link
 * of the user. False when the link was not usable: nothing was written. A batch that fails leaves
 * the link usable for the next try (it was once used up first, in a write of its own, so a failure
 * after it spent the link with the password unchanged).
 */
export async function resetPasswordWith(
  db: Db,
  reset: { id: string; userId: string; now: number },
  passwordHash: string,
  nowSeconds: number,
  records: Parameters<typeof batch>[1],
): Promise<boolean> {
  const usable = resetUsable(reset.id, reset.userId, reset.now);
  const results = await batch(db, [
    ...records,
    db
      .update(users)
      .set({ passwordHash, sessionEpoch: raisedEpoch(nowSeconds), ownerProven: true, emailVerified: true })
      .where(and(eq(users.id, reset.userId), usable)),
    db
      .update(passwordResets)
      .set({ usedAt: reset.now })
      // only when this batch set the password (the hash is salted: no other write leaves it there)
      .where(
        and(
          eq(passwordResets.userId, reset.userId),
          isNull(passwordResets.usedAt),
          sql`EXISTS (SELECT 1 FROM users WHERE id = ${reset.userId} AND password_hash = ${passwordHash})`,
        ),
      ),
  ]);
  return results[records.length]?.meta.changes === 1;
}

/** Whether a reset link is still usable (read before the work a reset does ahead of its batch). */
export async function resetIsUsable(db: Db, id: string, userId: string, now: number): Promise<boolean> {
  return (await db.all<{ ok: number }>(sql`SELECT ${resetUsable(id, userId, now)} AS ok`))[0]?.ok === 1;
}

/** A rehash of the same password (new parameters), written only if the hash is still the one that was checked. */
export async function replaceHash(db: Db, id: string, oldHash: string, newHash: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordHash: newHash })
    .where(and(eq(users.id, id), eq(users.passwordHash, oldHash)))
    .run();
}

/**
 * The resend limit as one conditional write: stamps `verification_sent_at` only when the last send
 * is `minGapMs` old or more. True when stamped (send now); concurrent requests cannot both pass.
 */
export async function claimVerificationSend(db: Db, id: string, now: number, minGapMs: number): Promise<boolean> {
  const r = await db
    .update(users)
    .set({ verificationSentAt: now })
    .where(and(eq(users.id, id), sql`coalesce(${users.verificationSentAt}, 0) <= ${now - minGapMs}`))
    .run();
  return r.meta.changes === 1;
}

/** The user a session token names, with whether that token was ended one by one (logout). One query. */
export async function findSessionUser(db: Db, id: string, tokenHash: string): Promise<(UserRow & { revoked: number }) | undefined> {
  return (
    await db
      .select({ ...getTableColumns(users), revoked: sql<number>`EXISTS (SELECT 1 FROM revoked_sessions WHERE token_hash = ${tokenHash})` })
      .from(users)
      .where(eq(users.id, id))
      .limit(1)
  )[0];
}

/** Ends one session token (logout), until it would have expired anyway. */
export async function revokeSessionToken(db: Db, row: typeof revokedSessions.$inferInsert): Promise<void> {
  await db.insert(revokedSessions).values(row).onConflictDoNothing().run();
}

// ---------------------------------------------------------------- stale unverified accounts

/** The user row of an unverified account older than `before` (ms), deleted: for a batch, after the statements that delete what it owns. */
export function deleteStaleUnverified(db: Db, id: string, before: number) {
  return db.delete(users).where(and(eq(users.id, id), eq(users.emailVerified, false), lt(users.createdAt, before)));
}

/** The same condition, for the owners of the user's other rows (their statements delete only while it holds). */
export const staleUnverified = (id: string, before: number) =>
  sql`EXISTS (SELECT 1 FROM users WHERE id = ${id} AND email_verified = 0 AND created_at < ${before})`;

export function deleteAuthRowsOf(db: Db, userId: string, condition: SQL) {
  return [
    db.delete(revokedSessions).where(and(eq(revokedSessions.userId, userId), condition)),
    db.delete(passwordResets).where(and(eq(passwordResets.userId, userId), condition)),
  ];
}

// ---------------------------------------------------------------- password resets

/** Records a reset unless one was made for the user less than `minGapMs` ago (one message per address per minute). True when recorded. */
export async function insertResetIfQuiet(
  db: Db,
  row: { id: string; userId: string; createdAt: number; expiresAt: number },
  rule: { minGapMs: number; perDay: number },
) {
  const r = await db.run(sql`INSERT INTO password_resets (id, user_id, created_at, expires_at)
    SELECT ${row.id}, ${row.userId}, ${row.createdAt}, ${row.expiresAt}
    WHERE NOT EXISTS (SELECT 1 FROM password_resets WHERE user_id = ${row.userId} AND created_at > ${row.createdAt - rule.minGapMs})
      AND (SELECT count(*) FROM password_resets WHERE user_id = ${row.userId} AND created_at > ${row.createdAt - 24 * 3600 * 1000}) < ${rule.perDay}`);
  return r.meta.changes === 1;
}

// ---------------------------------------------------------------- failed logins

export async function loginLock(db: Db, emailHash: string): Promise<{ failures: number; lockedUntil: number; lastAt: number } | undefined> {
  return (await db.select().from(loginFailures).where(eq(loginFailures.emailHash, emailHash)).limit(1))[0];
}

/**
 * Counts one login attempt against the address before its password is checked (a success then
 * clears the count): the count restarts after `windowMs` without attempts and, from `threshold`
 * attempts on, the address is locked for `baseMs` doubled per further attempt, at most `maxMs`.
 * One statement that counts only when the address is not locked, so parallel attempts cannot all
 * pass a lock read before any of them was counted. Answers false when the address is locked (the
 * attempt was not counted: the row is left as it was, so no row comes back).
 */
export async function countLoginAttempt(
  db: Db,
  emailHash: string,
  now: number,
  rule: { windowMs: number; threshold: number; baseMs: number; maxMs: number },
): Promise<boolean> {
  const failures = sql`CASE WHEN login_failures.last_at < ${now - rule.windowMs} THEN 1 ELSE login_failures.failures + 1 END`;
  const counted =
    await db.all(sql`INSERT INTO login_failures (email_hash, failures, locked_until, last_at) VALUES (${emailHash}, 1, ${rule.threshold <= 1 ? now + rule.baseMs : 0}, ${now})
    ON CONFLICT (email_hash) DO UPDATE SET
      failures = ${failures},
      locked_until = CASE WHEN ${failures} >= ${rule.threshold}
        THEN ${now} + min(${rule.maxMs}, ${rule.baseMs} << min(20, ${failures} - ${rule.threshold})) ELSE 0 END,
      last_at = ${now}
    WHERE login_failures.locked_until <= ${now}
    RETURNING failures`);
  return counted.length > 0;
}

export async function clearLoginFailures(db: Db, emailHash: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.emailHash, emailHash)).run();
}

/** Housekeeping (cron): ended-session markers past their tokens' expiry, old resets, quiet failure counts. */
export async function pruneAuthRows(db: Db, now: number, keepMs: number) {
  await db.batch([
    db.delete(revokedSessions).where(lt(revokedSessions.expiresAt, now)),
    db.delete(passwordResets).where(lt(passwordResets.expiresAt, now - keepMs)),
    db.delete(loginFailures).where(and(lt(loginFailures.lastAt, now - keepMs), lt(loginFailures.lockedUntil, now))),
  ]);
}

export async function searchUsers(db: Db, opts: { q?: string; limit: number; offset: number }) {
  // instr: the query is matched literally (no LIKE wildcards to escape).
  const where = opts.q ? sql`(instr(${users.email}, ${opts.q}) > 0 OR instr(lower(${users.name}), ${opts.q}) > 0)` : undefined;
  const [totals, rows] = await db.batch([
    db.select({ total: count() }).from(users).where(where),
    db.select().from(users).where(where).orderBy(users.createdAt, users.id).limit(opts.limit).offset(opts.offset),
  ]);
  return { total: totals[0]?.total ?? 0, rows };
}

/**
 * An admin's change of a user. Suspension and the loss of admin rights end the user's sessions. The
 * change is refused (undefined, `lastAdmin` true) when it would leave no active admin: one statement,
 * so two admins demoting each other at once cannot both succeed.
 */
export async function updateUser(db: Db, id: string, patch: { status?: "active" | "suspended"; isAdmin?: boolean }, nowSeconds: number) {
  const removesAdmin = patch.status === "suspended" || patch.isAdmin === false;
  const endsSessions = removesAdmin
    ? sql`CASE WHEN ${users.isAdmin} = 1 OR ${patch.status === "suspended" ? 1 : 0} = 1 THEN ${raisedEpoch(nowSeconds)} ELSE ${users.sessionEpoch} END`
    : undefined;
  const keepsAnAdmin = sql`NOT (${users.isAdmin} = 1 AND ${users.status} = 'active' AND (SELECT count(*) FROM users a WHERE a.is_admin = 1 AND a.status = 'active' AND a.id <> ${id}) = 0)`;
  const rows = await db
    .update(users)
    .set({ ...patch, ...(endsSessions ? { sessionEpoch: endsSessions } : {}) })
    .where(removesAdmin ? and(eq(users.id, id), keepsAnAdmin) : eq(users.id, id))
    .returning();
  return rows[0];
}

export async function countUsers(db: Db): Promise<number> {
  return (await db.select({ n: count() }).from(users))[0]?.n ?? 0;
}

/** A user's plan set to `planOf` (an SQL expression), as a batch statement; only while `condition` holds when given. */
export function setPlanOf(userId: string, planOf: SQL, condition?: SQL): SQL {
  return condition ? sql`UPDATE users SET plan = ${planOf} WHERE id = ${userId} AND ${condition}` : sql`UPDATE users SET plan = ${planOf} WHERE id = ${userId}`;
}

/** A user's plan, as a batch statement. */
export function setPlan(db: Db, userId: string, planId: string) {
  return db.update(users).set({ plan: planId }).where(eq(users.id, userId));
}

/** Every user's plan set to `planOf` (an SQL expression over `users.id`) where it differs; returns who changed. */
export async function reconcileUserPlans(db: Db, planOf: SQL): Promise<string[]> {
  const rows = await db.update(users).set({ plan: planOf }).where(sql`${users.plan} <> ${planOf}`).returning({ id: users.id });
  return rows.map((r) => r.id);
}
