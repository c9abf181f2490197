import { and, desc, eq, gt, inArray, lt, lte, ne, or, type SQL, sql } from "drizzle-orm";
import { ledgerReasons } from "../account/ledger-reasons";
import { appendLedgerIf, appendTakeBackIf } from "../account/queries";
import { reconcileUserPlans, setPlan, setPlanOf } from "../auth/queries";
import { batch, type Db } from "../db/client";
import { billingDetails, invoices, receipts, subscriptions } from "../db/schema";

export type InvoiceRow = typeof invoices.$inferSelect;

/**
 * Records an invoice only while the user made fewer than `perMinute` invoices in the last minute and
 * has fewer than `open` unpaid ones still payable: one statement, so concurrent requests cannot
 * overshoot. Otherwise says which limit it met (and, for the rate, when the oldest counted invoice leaves the minute).
 */
export async function insertInvoiceWithinLimits(
  db: Db,
  inv: InvoiceRow,
  limits: { perMinute: number; open: number },
): Promise<{ ok: true } | { ok: false; limit: "rate"; retryAfterMs: number } | { ok: false; limit: "open" }> {
  const now = inv.createdAt;
  const recent = sql`(SELECT count(*) FROM invoices WHERE user_id = ${inv.userId} AND created_at > ${now - 60_000})`;
  const open = sql`(SELECT count(*) FROM invoices WHERE user_id = ${inv.userId} AND status = 'UNPAID' AND expires_at > ${now})`;
  const r =
    await db.run(sql`INSERT INTO invoices (id, user_id, kind, plan_id, credits, amount, reference, status, closed_by, qr_string, qr_url, expires_at, paid_at, created_at)
    SELECT ${inv.id}, ${inv.userId}, ${inv.kind}, ${inv.planId}, ${inv.credits}, ${inv.amount}, ${inv.reference}, ${inv.status}, ${inv.closedBy}, ${inv.qrString}, ${inv.qrUrl}, ${inv.expiresAt}, ${inv.paidAt}, ${inv.createdAt}
    WHERE ${recent} < ${limits.perMinute} AND ${open} < ${limits.open}`);
  if (r.meta.changes === 1) return { ok: true };
  const [counts] = await db.all<{ recent: number; oldest: number | null }>(
    sql`SELECT ${recent} AS recent, (SELECT min(created_at) FROM invoices WHERE user_id = ${inv.userId} AND created_at > ${now - 60_000}) AS oldest`,
  );
  if ((counts?.recent ?? 0) >= limits.perMinute) return { ok: false, limit: "rate", retryAfterMs: (counts?.oldest ?? now) + 60_000 - now };
  return { ok: false, limit: "open" };
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

/** When a new subscription of the user starts: at `now`, or when the last one (running or queued) ends. */
async function lastPeriodEnd(db: Db, userId: string): Promise<number> {
  const r = await db.all<{ end: number | null }>(sql`SELECT max(period_end) AS end FROM subscriptions WHERE user_id = ${userId}`);
  return r[0]?.end ?? 0;
}

/**
 * A paid subscription's period, queued after the user's last one. Written only while that last end
 * is still `seenEnd` (two subscriptions settled at once cannot both take the same slot) and only once
 * per invoice (`source` is unique). For a batch.
 */
function queuedSubscription(inv: InvoiceRow, subscriptionId: string, now: number, seenEnd: number, periodOf: (start: number) => number) {
  const start = Math.max(now, seenEnd);
  return sql`INSERT OR IGNORE INTO subscriptions (id, user_id, plan_id, source, period_start, period_end, created_at)
    SELECT ${subscriptionId}, user_id, plan_id, ${`invoice:${inv.id}`}, ${start}, ${periodOf(start)}, ${now} FROM invoices
    WHERE id = ${inv.id} AND status = 'PAID'
      AND coalesce((SELECT max(period_end) FROM subscriptions WHERE user_id = ${inv.userId}), 0) = ${seenEnd}`;
}

/**
 * The user's plan once a subscription may have started or ended: the running subscription's, else
 * free; written only while `condition` holds (the invoice is in the state that changed it), so a
 * callback that changes nothing (a closed invoice) leaves the plan as it is. For a batch.
 */
const planNow = (userId: string, now: number, condition: SQL) =>
  setPlanOf(
    userId,
    sql`coalesce((SELECT s.plan_id FROM subscriptions s WHERE s.user_id = ${userId} AND s.period_start <= ${now} AND s.period_end > ${now} ORDER BY s.period_end DESC LIMIT 1), 'free')`,
    condition,
  );

/**
 * UNPAID -> PAID and its effect (ledger credit, or a subscription and the plan) in one atomic D1
 * batch; `adopt`: the paying transaction's reference, for an invoice that had none yet or (`sibling`) whose
 * kept transaction is not the one paid: then also from EXPIRED or FAILED, whoever closed it (the closing
 * was of the other transaction). The status guard and the unique refs make duplicate, concurrent or late deliveries no-ops.
 * A subscription is queued after the user's last one (so a cheaper plan bought while a dearer one
 * runs waits for it); the plan changes now only if it starts now.
 */
export async function settlePaid(
  db: Db,
  inv: InvoiceRow,
  now: number,
  periodOf: (start: number) => number,
  subscriptionId: string,
  adopt?: string,
  sibling = false,
) {
  const source = `invoice:${inv.id}`;
  const reason = ledgerReasons.topup(inv.id, inv.status === "EXPIRED");
  let seenEnd = inv.kind === "subscription" ? await lastPeriodEnd(db, inv.userId) : 0;
  // Each effect applies only if the invoice is PAID after the guarded transition; `source` is unique.
  const paid = sql`EXISTS (SELECT 1 FROM invoices WHERE id = ${inv.id} AND status = 'PAID')`;
  // The receipt last: issued only if the invoice is paid by then, once (an effect's index is read below).
  const effects = [
    ...(inv.kind === "topup"
      ? [appendLedgerIf({ userId: inv.userId, amount: inv.credits ?? 0, reason, ref: source, createdAt: now }, paid)]
      : [queuedSubscription(inv, subscriptionId, now, seenEnd, periodOf), planNow(inv.userId, now, paid)]),
    issueReceipts(sql`i.id = ${inv.id}`),
  ];
  const [transition, effect] = await batch(db, [
    db
      .update(invoices)
      .set({
        status: "PAID",
        paidAt: now,
        closedBy: "provider",
        // Never a reference another invoice holds (the unique index would fail the whole settlement).
        ...(adopt
          ? {
              reference: sql`CASE WHEN EXISTS (SELECT 1 FROM invoices o WHERE o.reference = ${adopt} AND o.id <> ${inv.id}) THEN ${invoices.reference} ELSE ${adopt} END`,
            }
          : {}),
      })
      .where(and(eq(invoices.id, inv.id), sibling ? inArray(invoices.status, ["UNPAID", "EXPIRED", "FAILED"]) : settleable)),
    ...effects,
  ]);
  const transitioned = transition.meta.changes === 1;
  // Another subscription of the user took the slot in between: queue after it (money received is
  // never lost). Only for an invoice that is paid: a PAID for one the provider closed changes nothing.
  // `unqueued`: still no subscription after a few tries; the caller must not answer success (the
  // provider delivers again, and a delivery for an invoice already PAID queues it then).
  const isPaid = transitioned || inv.status === "PAID";
  if (inv.kind !== "subscription" || !isPaid) return { transitioned, unqueued: false };
  // The first batch's insert wrote the subscription: nothing to look up.
  let queued = effect.meta.changes === 1;
  for (let attempt = 0; !queued && attempt < 5; attempt++) {
    if (await subscriptionOf(db, source)) return { transitioned, unqueued: false };
    seenEnd = await lastPeriodEnd(db, inv.userId);
    const [insert] = await batch(db, [queuedSubscription(inv, subscriptionId, now, seenEnd, periodOf), planNow(inv.userId, now, paid)]);
    queued = insert.meta.changes === 1;
  }
  return { transitioned, unqueued: !queued && !(await subscriptionOf(db, source)) };
}

async function subscriptionOf(db: Db, source: string) {
  return (await db.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.source, source)).limit(1))[0];
}

/**
 * PAID -> REFUNDED, once, with its effect in the same batch: a top-up's credits taken back (as many
 * as the balance holds when the batch runs, never below zero: `take`), or the subscription ended (a
 * queued one never starts) and the plan set to what runs then, with a ledger entry of 0 saying so
 * (`note`), and the audit event `record` builds (first in the batch, while the invoice is still
 * PAID: written only by the batch that refunds it). The ledger entry's ref is unique: repeated
 * deliveries change nothing. True when this call refunded it.
 */
export async function settleRefund(
  db: Db,
  inv: InvoiceRow,
  now: number,
  effect: { take: { credits: number; pending: number; what: string } } | { note: string },
  record: (condition: SQL) => SQL,
) {
  const refunded = sql`EXISTS (SELECT 1 FROM invoices WHERE id = ${inv.id} AND status = 'REFUNDED')`;
  const refundable = sql`EXISTS (SELECT 1 FROM invoices WHERE id = ${inv.id} AND status = 'PAID')`;
  const effects =
    inv.kind === "subscription"
      ? [
          db
            .update(subscriptions)
            .set({ periodEnd: sql`max(${subscriptions.periodStart}, min(${subscriptions.periodEnd}, ${now}))` })
            .where(and(eq(subscriptions.source, `invoice:${inv.id}`), refunded)),
          planNow(inv.userId, now, refunded),
        ]
      : [];
  const ref = `refund:${inv.id}`;
  const [, transition] = await batch(db, [
    record(refundable),
    db
      .update(invoices)
      .set({ status: "REFUNDED" })
      .where(and(eq(invoices.id, inv.id), eq(invoices.status, "PAID"))),
    ...effects,
    "take" in effect
      ? appendTakeBackIf({ userId: inv.userId, ...effect.take, ref, createdAt: now }, refunded)
      : appendLedgerIf({ userId: inv.userId, amount: 0, reason: effect.note, ref, createdAt: now }, refunded),
  ]);
  return transition.meta.changes === 1;
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

/** Sets users.plan to the plan of the subscription running now (or free) where it differs; returns who changed. */
export async function reconcilePlans(db: Db, now: number): Promise<string[]> {
  return reconcileUserPlans(
    db,
    sql`coalesce((SELECT s.plan_id FROM subscriptions s WHERE s.user_id = users.id AND s.period_start <= ${now} AND s.period_end > ${now} ORDER BY s.period_end DESC LIMIT 1), 'free')`,
  );
}

/** Users with a subscription that started or ended in (`since`, `now`]: whose plan the job may just have changed. */
export async function subscriptionBoundariesBetween(db: Db, since: number, now: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ userId: subscriptions.userId })
    .from(subscriptions)
    .where(
      or(
        and(gt(subscriptions.periodStart, since), lte(subscriptions.periodStart, now)),
        and(gt(subscriptions.periodEnd, since), lte(subscriptions.periodEnd, now)),
      ),
    );
  return rows.map((r) => r.userId);
}

/** The subscription running now (the one ending last, if periods overlap), if any. */
export async function activeSubscription(db: Db, userId: string, now: number) {
  return (
    await db
      .select({ planId: subscriptions.planId, periodStart: subscriptions.periodStart, periodEnd: subscriptions.periodEnd })
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), lte(subscriptions.periodStart, now), gt(subscriptions.periodEnd, now)))
      .orderBy(desc(subscriptions.periodEnd))
      .limit(1)
  )[0];
}

/** Paid subscriptions that have not started yet, in order. */
export async function queuedSubscriptions(db: Db, userId: string, now: number) {
  return db
    .select({ planId: subscriptions.planId, periodStart: subscriptions.periodStart, periodEnd: subscriptions.periodEnd })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), gt(subscriptions.periodStart, now), gt(subscriptions.periodEnd, subscriptions.periodStart)))
    .orderBy(subscriptions.periodStart);
}

/** A subscription that starts now and the user's plan, in one batch with `records` (the audit events): all or nothing. */
export async function insertSubscription(db: Db, sub: typeof subscriptions.$inferInsert, records: Parameters<typeof batch>[1] = []) {
  await batch(db, [...records, db.insert(subscriptions).values(sub), setPlan(db, sub.userId, sub.planId)]);
}

/** A user's invoices and subscriptions, deleted while `condition` holds (a stale unverified account replaced). For a batch. */
export function deleteBillingRowsIf(db: Db, userId: string, condition: SQL) {
  return [
    db.delete(subscriptions).where(and(eq(subscriptions.userId, userId), condition)),
    db.delete(invoices).where(and(eq(invoices.userId, userId), condition)),
  ];
}

// ---------------------------------------------------------------- billing details and receipts

export type BillingDetailsRow = typeof billingDetails.$inferSelect;

export async function findBillingDetails(db: Db, userId: string): Promise<BillingDetailsRow | undefined> {
  return (await db.select().from(billingDetails).where(eq(billingDetails.userId, userId)).limit(1))[0];
}

export async function saveBillingDetails(db: Db, row: BillingDetailsRow): Promise<void> {
  const { userId: _, ...set } = row;
  await db.insert(billingDetails).values(row).onConflictDoUpdate({ target: billingDetails.userId, set });
}

/**
 * Receipts for the paid (or since refunded) invoices `which` selects (over `invoices i`) that have
 * none: each numbered after the last receipt (in the order paid), its buyer copied from the account
 * and its billing details as they are now. One statement: a number is never given twice. For a batch.
 */
export function issueReceipts(which: SQL): SQL {
  return sql`INSERT OR IGNORE INTO receipts (invoice_id, user_id, seq, issued_at, buyer_name, buyer_email, company_name, npwp, address)
    SELECT i.id, i.user_id,
      (SELECT coalesce(max(seq), 0) FROM receipts) + row_number() OVER (ORDER BY i.paid_at, i.id),
      i.paid_at, u.name, u.email, d.company_name, d.npwp, d.address
    FROM invoices i JOIN users u ON u.id = i.user_id LEFT JOIN billing_details d ON d.user_id = i.user_id
    WHERE ${which} AND i.status IN ('PAID', 'REFUNDED') AND i.paid_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM receipts r WHERE r.invoice_id = i.id)`;
}

/** Receipts of a user's paid invoices settled before receipts existed: issued now (a no-op once done). */
export async function issueMissingReceipts(db: Db, userId: string): Promise<void> {
  await db.run(issueReceipts(sql`i.user_id = ${userId}`));
}

export type ReceiptRow = typeof receipts.$inferSelect & { invoice: InvoiceRow; periodStart: number | null; periodEnd: number | null };

const receiptColumns = { receipt: receipts, invoice: invoices, periodStart: subscriptions.periodStart, periodEnd: subscriptions.periodEnd };

function receiptRows(db: Db, where: SQL | undefined) {
  return db
    .select(receiptColumns)
    .from(receipts)
    .innerJoin(invoices, eq(invoices.id, receipts.invoiceId))
    .leftJoin(subscriptions, eq(subscriptions.source, sql`'invoice:' || ${receipts.invoiceId}`))
    .where(where)
    .orderBy(desc(receipts.seq));
}

const rowOf = (r: { receipt: typeof receipts.$inferSelect; invoice: InvoiceRow; periodStart: number | null; periodEnd: number | null }): ReceiptRow => ({
  ...r.receipt,
  invoice: r.invoice,
  periodStart: r.periodStart,
  periodEnd: r.periodEnd,
});

/** A user's receipts, newest first (at most `limit`). */
export async function receiptsOfUser(db: Db, userId: string, limit: number): Promise<ReceiptRow[]> {
  return (await receiptRows(db, eq(receipts.userId, userId)).limit(limit)).map(rowOf);
}

/** One of the user's receipts, by its invoice id; another user's is undefined, as an unknown one. */
export async function findReceipt(db: Db, userId: string, invoiceId: string): Promise<ReceiptRow | undefined> {
  return (await receiptRows(db, and(eq(receipts.userId, userId), eq(receipts.invoiceId, invoiceId))).limit(1)).map(rowOf)[0];
}
