import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { batch, type Db } from "../db/client";
import { creditLedger, invoices, plans, subscriptions, users } from "../db/schema";

export type PlanRow = typeof plans.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;

export const publicPlans = (db: Db) => db.select().from(plans).where(eq(plans.isPublic, true)).orderBy(asc(plans.sort));

export async function findPlan(db: Db, id: string): Promise<PlanRow | undefined> {
  return (await db.select().from(plans).where(eq(plans.id, id)).limit(1))[0];
}

export async function insertInvoice(db: Db, inv: typeof invoices.$inferInsert): Promise<void> {
  await db.insert(invoices).values(inv);
}

export async function findInvoice(db: Db, id: string, reference: string): Promise<InvoiceRow | undefined> {
  return (await db.select().from(invoices).where(and(eq(invoices.id, id), eq(invoices.reference, reference))).limit(1))[0];
}

export async function findInvoiceOfUser(db: Db, userId: string, id: string): Promise<InvoiceRow | undefined> {
  return (await db.select().from(invoices).where(and(eq(invoices.id, id), eq(invoices.userId, userId))).limit(1))[0];
}

/**
 * UNPAID -> PAID and its effect (ledger credit, or subscription and plan) in one atomic D1 batch.
 * The status guard and the unique refs make duplicate, concurrent or late deliveries no-ops.
 */
export async function settlePaid(db: Db, inv: InvoiceRow, now: number, periodEnd: number, subscriptionId: string) {
  const source = `invoice:${inv.id}`;
  // Each effect applies only if the invoice is PAID after the guarded transition; `source` is unique.
  const effects =
    inv.kind === "topup"
      ? [
          sql`INSERT OR IGNORE INTO credit_ledger (user_id, amount, reason, ref, created_at)
            SELECT user_id, credits, 'top-up ' || id, ${source}, ${now} FROM invoices WHERE id = ${inv.id} AND status = 'PAID'`,
        ]
      : [
          sql`INSERT OR IGNORE INTO subscriptions (id, user_id, plan_id, source, period_start, period_end, created_at)
            SELECT ${subscriptionId}, user_id, plan_id, ${source}, ${now}, ${periodEnd}, ${now} FROM invoices WHERE id = ${inv.id} AND status = 'PAID'`,
          sql`UPDATE users SET plan = ${inv.planId} WHERE id = ${inv.userId}
            AND EXISTS (SELECT 1 FROM subscriptions WHERE source = ${source} AND period_end > ${now})`,
        ];
  const [transition] = await batch(db, [
    db.update(invoices).set({ status: "PAID", paidAt: now }).where(and(eq(invoices.id, inv.id), eq(invoices.status, "UNPAID"))),
    ...effects,
  ]);
  return { transitioned: transition.meta.changes === 1 };
}

/** UNPAID -> EXPIRED | FAILED; any other state stays (never back, never from PAID). */
export async function settleUnpaid(db: Db, id: string, status: "EXPIRED" | "FAILED"): Promise<boolean> {
  const r = await db.update(invoices).set({ status }).where(and(eq(invoices.id, id), eq(invoices.status, "UNPAID"))).run();
  return r.meta.changes === 1;
}

export async function expireOverdue(db: Db, now: number): Promise<number> {
  const r = await db.update(invoices).set({ status: "EXPIRED" }).where(and(eq(invoices.status, "UNPAID"), lt(invoices.expiresAt, now))).run();
  return r.meta.changes;
}

/** Sets users.plan to the plan of their latest active subscription (or free) where it differs; returns who changed. */
export async function reconcilePlans(db: Db, now: number): Promise<string[]> {
  const current = sql`coalesce((SELECT s.plan_id FROM subscriptions s WHERE s.user_id = users.id AND s.period_end > ${now} ORDER BY s.period_end DESC LIMIT 1), 'free')`;
  const rows = await db.update(users).set({ plan: current }).where(sql`${users.plan} <> ${current}`).returning({ id: users.id });
  return rows.map((r) => r.id);
}

export async function activeSubscription(db: Db, userId: string, now: number) {
  return (
    await db
      .select({ planId: subscriptions.planId, planName: plans.name, periodStart: subscriptions.periodStart, periodEnd: subscriptions.periodEnd })
      .from(subscriptions)
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      .where(and(eq(subscriptions.userId, userId), gt(subscriptions.periodEnd, now)))
      .orderBy(desc(subscriptions.periodEnd))
      .limit(1)
  )[0];
}

export async function ledgerBalance(db: Db, userId: string): Promise<number> {
  const r = await db.select({ b: sql<number>`coalesce(sum(${creditLedger.amount}), 0)` }).from(creditLedger).where(eq(creditLedger.userId, userId));
  return Number(r[0]?.b ?? 0);
}

export async function ledgerPage(db: Db, userId: string, limit: number, offset: number) {
  const [totals, rows] = await db.batch([
    db.select({ n: sql<number>`count(*)` }).from(creditLedger).where(eq(creditLedger.userId, userId)),
    db.select().from(creditLedger).where(eq(creditLedger.userId, userId)).orderBy(desc(creditLedger.id)).limit(limit).offset(offset),
  ]);
  return { total: Number(totals[0]?.n ?? 0), rows };
}

export async function appendLedger(db: Db, entry: typeof creditLedger.$inferInsert) {
  await db.insert(creditLedger).values(entry);
}

/** A ledger entry under a ref that may already be written (a retried flush): written at most once. For a batch. */
export function appendLedgerOnce(db: Db, entry: typeof creditLedger.$inferInsert) {
  return db.insert(creditLedger).values(entry).onConflictDoNothing();
}

export async function insertSubscription(db: Db, sub: typeof subscriptions.$inferInsert) {
  await db.batch([db.insert(subscriptions).values(sub), db.update(users).set({ plan: sub.planId }).where(eq(users.id, sub.userId))]);
}
