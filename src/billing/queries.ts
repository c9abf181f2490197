import { and, desc, eq, gt, lt, ne, or, sql } from "drizzle-orm";
import { appendLedgerIf } from "../account/queries";
import { reconcileUserPlans, setPlan, setPlanIf } from "../auth/queries";
import { batch, type Db } from "../db/client";
import { invoices, subscriptions } from "../db/schema";

export type InvoiceRow = typeof invoices.$inferSelect;

export async function insertInvoice(db: Db, inv: typeof invoices.$inferInsert): Promise<void> {
  await db.insert(invoices).values(inv);
}

export async function findInvoiceById(db: Db, id: string): Promise<InvoiceRow | undefined> {
  return (await db.select().from(invoices).where(eq(invoices.id, id)).limit(1))[0];
}

/** The invoice that already carries a provider reference, other than `exceptId`. */
export async function invoiceWithReference(db: Db, reference: string, exceptId: string): Promise<InvoiceRow | undefined> {
  return (
    await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.reference, reference), ne(invoices.id, exceptId)))
      .limit(1)
  )[0];
}

/**
 * Fills in the provider's answer on a recorded invoice, unless another invoice already has that
 * reference (the guard and the unique index both say no). True when adopted.
 */
export async function adoptTransaction(
  db: Db,
  id: string,
  tx: { reference: string; qrString: string; qrUrl: string | null; expiresAt: number },
): Promise<boolean> {
  try {
    const r = await db
      .update(invoices)
      .set({ reference: tx.reference, qrString: tx.qrString, qrUrl: tx.qrUrl, expiresAt: tx.expiresAt })
      .where(
        and(
          eq(invoices.id, id),
          eq(invoices.status, "UNPAID"),
          sql`NOT EXISTS (SELECT 1 FROM invoices o WHERE o.reference = ${tx.reference} AND o.id <> ${id})`,
        ),
      )
      .run();
    return r.meta.changes === 1;
  } catch (e) {
    if (/UNIQUE constraint failed/i.test(String((e as Error)?.cause ?? e))) return false;
    throw e;
  }
}

export async function deleteInvoice(db: Db, id: string): Promise<void> {
  await db
    .delete(invoices)
    .where(and(eq(invoices.id, id), eq(invoices.status, "UNPAID")))
    .run();
}

/** States a signed PAID still settles: unpaid, or expired by our own clock (not by the provider). */
const settleable = or(eq(invoices.status, "UNPAID"), and(eq(invoices.status, "EXPIRED"), eq(invoices.closedBy, "system")));

/** A user's invoices, newest first, and how many there are. */
export async function invoicePage(db: Db, userId: string, limit: number, offset: number) {
  const [totals, rows] = await db.batch([
    db.select({ n: sql<number>`count(*)` }).from(invoices).where(eq(invoices.userId, userId)),
    db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(desc(invoices.createdAt), desc(invoices.id)).limit(limit).offset(offset),
  ]);
  return { total: Number(totals[0]?.n ?? 0), rows };
}

export async function findInvoiceOfUser(db: Db, userId: string, id: string): Promise<InvoiceRow | undefined> {
  return (
    await db
      .select()
      .from(invoices)
      .where(and(eq(invoices.id, id), eq(invoices.userId, userId)))
      .limit(1)
  )[0];
}

/**
 * UNPAID -> PAID and its effect (ledger credit, or subscription and plan) in one atomic D1 batch.
 * The status guard and the unique refs make duplicate, concurrent or late deliveries no-ops.
 */
export async function settlePaid(db: Db, inv: InvoiceRow, now: number, periodEnd: number, subscriptionId: string) {
  const source = `invoice:${inv.id}`;
  const reason = inv.status === "EXPIRED" ? `top-up ${inv.id} (paid after expiry)` : `top-up ${inv.id}`;
  // Each effect applies only if the invoice is PAID after the guarded transition; `source` is unique.
  const effects =
    inv.kind === "topup"
      ? [
          appendLedgerIf(
            { userId: inv.userId, amount: inv.credits ?? 0, reason, ref: source, createdAt: now },
            sql`EXISTS (SELECT 1 FROM invoices WHERE id = ${inv.id} AND status = 'PAID')`,
          ),
        ]
      : [
          sql`INSERT OR IGNORE INTO subscriptions (id, user_id, plan_id, source, period_start, period_end, created_at)
            SELECT ${subscriptionId}, user_id, plan_id, ${source}, ${now}, ${periodEnd}, ${now} FROM invoices WHERE id = ${inv.id} AND status = 'PAID'`,
          setPlanIf(inv.userId, inv.planId ?? "free", sql`EXISTS (SELECT 1 FROM subscriptions WHERE source = ${source} AND period_end > ${now})`),
        ];
  const [transition] = await batch(db, [
    db
      .update(invoices)
      .set({ status: "PAID", paidAt: now, closedBy: "provider" })
      .where(and(eq(invoices.id, inv.id), settleable)),
    ...effects,
  ]);
  return { transitioned: transition.meta.changes === 1 };
}

/**
 * -> EXPIRED | FAILED, decided by `by`. The provider's word is final and also closes an expiry of
 * our own; ours applies to UNPAID only. Never from PAID, never back.
 */
export async function closeUnpaid(db: Db, id: string, status: "EXPIRED" | "FAILED", by: "provider" | "system"): Promise<boolean> {
  const from = by === "provider" ? settleable : eq(invoices.status, "UNPAID");
  const r = await db
    .update(invoices)
    .set({ status, closedBy: by })
    .where(and(eq(invoices.id, id), from))
    .run();
  return r.meta.changes === 1;
}

/** Our expiry job: unpaid invoices whose expiry (the provider's) passed more than `marginMs` ago; provisional. */
export async function expireOverdue(db: Db, now: number, marginMs: number): Promise<number> {
  const r = await db
    .update(invoices)
    .set({ status: "EXPIRED", closedBy: "system" })
    .where(and(eq(invoices.status, "UNPAID"), lt(invoices.expiresAt, now - marginMs)))
    .run();
  return r.meta.changes;
}

/** Sets users.plan to the plan of their latest active subscription (or free) where it differs; returns who changed. */
export async function reconcilePlans(db: Db, now: number): Promise<string[]> {
  return reconcileUserPlans(
    db,
    sql`coalesce((SELECT s.plan_id FROM subscriptions s WHERE s.user_id = users.id AND s.period_end > ${now} ORDER BY s.period_end DESC LIMIT 1), 'free')`,
  );
}

/** The subscription that ends last among those still running, if any. */
export async function activeSubscription(db: Db, userId: string, now: number) {
  return (
    await db
      .select({ planId: subscriptions.planId, periodStart: subscriptions.periodStart, periodEnd: subscriptions.periodEnd })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), gt(subscriptions.periodEnd, now)))
      .orderBy(desc(subscriptions.periodEnd))
      .limit(1)
  )[0];
}

export async function insertSubscription(db: Db, sub: typeof subscriptions.$inferInsert) {
  await db.batch([db.insert(subscriptions).values(sub), setPlan(db, sub.userId, sub.planId)]);
}
