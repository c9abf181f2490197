/**
 * The account's tables: daily usage (`usage_daily`), the plan catalog (`plans`), the credit
 * ledger (`credit_ledger`), which admission reads and billing writes through these statements, and
 * the account's own settings and alerts (`account_settings`, `usage_alerts`).
 */
import { and, asc, desc, eq, type SQL, sql, sum } from "drizzle-orm";
import type { Db } from "../db/client";
import { accountSettings, creditLedger, plans, usageAlerts, usageDaily } from "../db/schema";

/** A day's count for one key and endpoint, written as an absolute value (a repeated flush changes nothing). For a batch. */
export function upsertDailyCount(db: Db, row: typeof usageDaily.$inferInsert) {
  return db
    .insert(usageDaily)
    .values(row)
    .onConflictDoUpdate({ target: [usageDaily.userId, usageDaily.keyId, usageDaily.endpoint, usageDaily.day], set: { count: sql`excluded.count` } });
}

/** Flushed calls of every account in one month (`YYYY-MM`). */
export async function callsInMonth(db: Db, month: string): Promise<number> {
  const r = await db
    .select({ n: sum(usageDaily.count) })
    .from(usageDaily)
    .where(sql`${usageDaily.day} LIKE ${`${month}-%`}`);
  return Number(r[0]?.n ?? 0);
}

// ---------------------------------------------------------------- plans

export type PlanRow = typeof plans.$inferSelect;

export const publicPlans = (db: Db) => db.select().from(plans).where(eq(plans.isPublic, true)).orderBy(asc(plans.sort));

export async function findPlan(db: Db, id: string): Promise<PlanRow | undefined> {
  return (await db.select().from(plans).where(eq(plans.id, id)).limit(1))[0];
}

// ---------------------------------------------------------------- credit ledger (append-only; balance = sum)

export async function ledgerBalance(db: Db, userId: string): Promise<number> {
  const r = await db
    .select({ b: sql<number>`coalesce(sum(${creditLedger.amount}), 0)` })
    .from(creditLedger)
    .where(eq(creditLedger.userId, userId));
  return Number(r[0]?.b ?? 0);
}

export async function ledgerPage(db: Db, userId: string, limit: number, offset: number) {
  const [totals, rows] = await db.batch([
    db.select({ n: sql<number>`count(*)` }).from(creditLedger).where(eq(creditLedger.userId, userId)),
    db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(desc(creditLedger.id)).limit(limit).offset(offset),
  ]);
  return { total: Number(totals[0]?.n ?? 0), rows };
}

/** A ledger entry under a ref that may already be written (a retried flush, a fresh admin ref): written at most once. For a batch. */
export function appendLedgerOnce(db: Db, entry: typeof creditLedger.$inferInsert) {
  return db.insert(creditLedger).values(entry).onConflictDoNothing();
}

/**
 * A ledger entry written only when `condition` holds when the statement runs (in the same batch as
 * the change that decides it) and only once per ref. For a batch.
 */
export function appendLedgerIf(entry: { userId: string; amount: number; reason: string; ref: string; createdAt: number }, condition: SQL): SQL {
  return sql`INSERT OR IGNORE INTO credit_ledger (user_id, amount, reason, ref, created_at)
    SELECT ${entry.userId}, ${entry.amount}, ${entry.reason}, ${entry.ref}, ${entry.createdAt} WHERE ${condition}`;
}

/**
 * A refund's take-back: up to `credits`, clamped when the statement runs to what the balance holds
 * then (the ledger's sum there minus `pending`, the debits the account object has not written), so
 * a refund racing another refund or spending never takes the balance below zero. The reason says
 * how many were taken and how many could not be. Written only while `condition` holds, once per ref. For a batch.
 */
export function appendTakeBackIf(
  entry: { userId: string; credits: number; pending: number; what: string; ref: string; createdAt: number },
  condition: SQL,
): SQL {
  return sql`WITH t(take) AS (SELECT max(0, min(${entry.credits}, (SELECT coalesce(sum(amount), 0) FROM credit_ledger WHERE user_id = ${entry.userId}) - ${entry.pending})))
    INSERT OR IGNORE INTO credit_ledger (user_id, amount, reason, ref, created_at)
    SELECT ${entry.userId}, -take,
      ${entry.what} || ': ' || printf('%,d', take) || ' credits taken back'
        || CASE WHEN ${entry.credits} - take > 0 THEN '; ' || printf('%,d', ${entry.credits} - take) || ' could not be (already spent)' ELSE '' END,
      ${entry.ref}, ${entry.createdAt}
    FROM t WHERE ${condition}`;
}

/** The amount of the ledger entry under `ref`, if written. */
export async function ledgerEntryAmount(db: Db, ref: string): Promise<number | undefined> {
  const r = await db.select({ amount: creditLedger.amount }).from(creditLedger).where(eq(creditLedger.ref, ref)).limit(1);
  return r[0]?.amount;
}

/** A user's usage and ledger rows, deleted while `condition` holds (a stale unverified account replaced). For a batch. */
export function deleteAccountRowsIf(db: Db, userId: string, condition: SQL) {
  return [
    db.delete(usageDaily).where(and(eq(usageDaily.userId, userId), condition)),
    db.delete(creditLedger).where(and(eq(creditLedger.userId, userId), condition)),
  ];
}

// ---------------------------------------------------------------- settings and alerts

export type AccountSettingsRow = typeof accountSettings.$inferSelect;
export type UsageAlertRow = typeof usageAlerts.$inferSelect;

export async function findAccountSettings(db: Db, userId: string): Promise<AccountSettingsRow | undefined> {
  return (await db.select().from(accountSettings).where(eq(accountSettings.userId, userId)).limit(1))[0];
}

/** The account's settings as a whole (absent fields keep their value). */
export async function saveAccountSettings(db: Db, row: AccountSettingsRow): Promise<void> {
  const { userId: _, ...set } = row;
  await db.insert(accountSettings).values(row).onConflictDoUpdate({ target: accountSettings.userId, set });
}

/** An alert, once per account, month, kind and level; the row (new or already there). */
export async function recordAlert(db: Db, row: Omit<typeof usageAlerts.$inferInsert, "id">): Promise<UsageAlertRow> {
  const [, found] = await db.batch([
    db.insert(usageAlerts).values(row).onConflictDoNothing(),
    db
      .select()
      .from(usageAlerts)
      .where(and(eq(usageAlerts.userId, row.userId), eq(usageAlerts.month, row.month), eq(usageAlerts.kind, row.kind), eq(usageAlerts.level, row.level)))
      .limit(1),
  ]);
  return found[0];
}

export async function markAlertEmailed(db: Db, id: number, at: number): Promise<void> {
  await db.update(usageAlerts).set({ emailedAt: at }).where(eq(usageAlerts.id, id));
}

/** An account's alerts, newest first (at most `limit`). */
export function alertsOfUser(db: Db, userId: string, limit: number) {
  return db.select().from(usageAlerts).where(eq(usageAlerts.userId, userId)).orderBy(desc(usageAlerts.createdAt), desc(usageAlerts.id)).limit(limit);
}
