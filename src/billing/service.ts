/**
 * Billing rules: plans, invoices through Tripay, the payment webhook, credits and subscriptions.
 * Returns records (the contract's views of plans and invoices) and pages of them; the surfaces
 * (routes/billing.ts, routes/admin.ts, the portal) put them in their answers.
 */
import { renderSVG } from "uqr";
import { accountChanged, pendingDebits } from "../account/admission";
import { ledgerReasons } from "../account/ledger-reasons";
import { appendLedgerOnce, findPlan, ledgerBalance, ledgerEntryAmount, ledgerPage, type PlanRow, publicPlans } from "../account/queries";
import { requestLogDays } from "../account/rules";
import { audit, auditIf } from "../audit/service";
import { batch, primaryDb } from "../db/client";
import type { UserRow } from "../db/schema";
import { newId } from "../lib/crypto";
import { serviceUnavailable } from "../lib/dependency";
import { ApiError, issuesToDetails } from "../lib/errors";
import { log } from "../lib/log";
import { type PageOf, type Paging, pageWindow } from "../lib/paging";
import { iso, spokenDuration } from "../lib/time";
import { addMonth, addMonths } from "./months";
import {
  activeSubscription,
  adoptTransaction,
  closeUnpaid,
  deleteInvoice,
  expireOverdue,
  findInvoiceById,
  findInvoiceOfUser,
  type InvoiceRow,
  insertInvoiceWithinLimits,
  insertSubscription,
  invoicePage,
  invoiceWithReference,
  queuedSubscriptions,
  reconcilePlans,
  settlePaid,
  settleRefund,
  subscriptionBoundariesBetween,
} from "./queries";
import { TOPUP, tripayCallbackSchema } from "./schemas";
import { SIMULATOR_PRIVATE_KEY, simulatedCallback, usesPaymentSimulator } from "./simulator";
import { createTransaction, TransactionRefused, tripayConfig, verifyCallback } from "./tripay";

/** How long a QR invoice can be paid. */
export const INVOICE_TTL_MS = 30 * 60 * 1000;
/** Our expiry job waits this long past the provider's own expiry (clocks differ; a payment may be in flight). */
export const EXPIRY_MARGIN_MS = 15 * 60 * 1000;

/** Invoices a user may create per minute, and unpaid ones they may have open at once. */
export const INVOICE_LIMITS = { perMinute: 3, open: 5 } as const;

/** The reference an invoice carries from being recorded until the provider's answer is adopted. */
const pendingReference = (id: string) => `pending:${id}`;
const isPending = (inv: InvoiceRow) => inv.reference === pendingReference(inv.id);

export function publicPlan(p: PlanRow) {
  return {
    id: p.id,
    name: p.name,
    price_idr: p.priceIdr,
    monthly_quota: p.monthlyQuota,
    rate_limit_per_minute: p.rateLimitPerMinute,
    features: p.features,
    request_log_days: requestLogDays(p.id),
  };
}

/**
 * Public plans change only with a migration: each isolate keeps the list a minute, so the landing
 * page and GET /billing/plans (both open to anyone, so anyone could make us read D1 at will) read D1
 * about once a minute per isolate, not once per request.
 */
const PLANS_TTL_MS = 60_000;
type PlanView = ReturnType<typeof publicPlan>;
let plansCache: { at: number; plans: PlanView[] } | undefined;

export async function listPlans(env: Env): Promise<PlanView[]> {
  const now = Date.now();
  if (!plansCache || now - plansCache.at >= PLANS_TTL_MS) plansCache = { at: now, plans: (await publicPlans(primaryDb(env))).map(publicPlan) };
  return plansCache.plans;
}

export type InvoiceView = ReturnType<typeof invoiceView>;

export function invoiceView(inv: InvoiceRow) {
  return {
    id: inv.id,
    kind: inv.kind,
    amount: inv.amount,
    credits: inv.credits,
    plan_id: inv.planId,
    status: inv.status,
    reference: isPending(inv) ? null : inv.reference,
    qr_string: inv.qrString || null,
    // An SVG rendered from qr_string (the payload a banking app scans), as a data URL.
    qr_image: inv.qrString ? `data:image/svg+xml;base64,${btoa(renderSVG(inv.qrString, { border: 2 }))}` : null,
    qr_url: inv.qrUrl,
    expires_at: iso(inv.expiresAt),
    paid_at: iso(inv.paidAt),
    created_at: iso(inv.createdAt),
  };
}

/**
 * An invoice is recorded before the provider is asked, so whatever transaction the provider then
 * creates has an invoice to settle (a signed PAID finds it by merchant_ref): money received is
 * never lost, even when our own write after the provider's answer fails. The provider's answer is
 * adopted only when its reference is new to us.
 */
async function createInvoice(
  env: Env,
  user: UserRow,
  what: { kind: "topup"; amount: number; credits: number } | { kind: "subscription"; amount: number; plan: PlanRow },
) {
  if (!user.emailVerified)
    throw new ApiError("EMAIL_NOT_VERIFIED", "Verify your email address before paying (POST /auth/resend-verification sends a new link).");
  const cfg = tripayConfig(env); // 503 before anything is written
  const db = primaryDb(env);
  const now = Date.now();
  const id = newId("inv");
  const itemName = what.kind === "topup" ? `Wilayah API credits (${what.credits.toLocaleString("en")})` : `Wilayah API ${what.plan.name}, 1 month`;
  const row: InvoiceRow = {
    id,
    userId: user.id,
    kind: what.kind,
    planId: what.kind === "subscription" ? what.plan.id : null,
    credits: what.kind === "topup" ? what.credits : null,
    amount: what.amount,
    reference: pendingReference(id),
    status: "UNPAID",
    closedBy: null,
    qrString: "",
    qrUrl: null,
    expiresAt: now + INVOICE_TTL_MS,
    paidAt: null,
    createdAt: now,
  };
  const recorded = await insertInvoiceWithinLimits(db, row, INVOICE_LIMITS);
  if (!recorded.ok) {
    if (recorded.limit === "rate") {
      const wait = Math.max(1, Math.ceil(recorded.retryAfterMs / 1000));
      throw new ApiError("RATE_LIMITED", `At most ${INVOICE_LIMITS.perMinute} invoices per minute. Try again in ${wait} seconds.`, {
        headers: { "retry-after": String(wait) },
      });
    }
    throw new ApiError(
      "TOO_MANY_OPEN_INVOICES",
      `You have ${INVOICE_LIMITS.open} unpaid invoices open. Pay one, or wait until they expire (${spokenDuration(INVOICE_TTL_MS)} after creation).`,
    );
  }
  let tx: Awaited<ReturnType<typeof createTransaction>>;
  try {
    tx = await createTransaction(cfg, {
      merchantRef: id,
      amount: what.amount,
      itemName,
      customerName: user.name,
      customerEmail: user.email,
      expiresAt: row.expiresAt,
    });
  } catch (e) {
    // Refused: the provider created nothing, so neither do we. Otherwise (timeout, garbled answer)
    // it may have: the invoice stays, closed by us, which a signed PAID still settles.
    if (e instanceof TransactionRefused) await deleteInvoice(db, id);
    else await closeUnpaid(db, id, "EXPIRED", "system");
    throw e;
  }
  if (!(await adoptTransaction(db, id, tx))) {
    const other = await invoiceWithReference(db, tx.reference, id);
    log.error("payment_reference_conflict", { invoice: id, reference: tx.reference, other_invoice: other?.id ?? null });
    await closeUnpaid(db, id, "EXPIRED", "system");
    throw new ApiError(
      "UPSTREAM_ERROR",
      "The payment provider answered with a transaction reference that belongs to another invoice. Nothing was charged; try again.",
    );
  }
  return invoiceView({ ...row, reference: tx.reference, qrString: tx.qrString, qrUrl: tx.qrUrl, expiresAt: tx.expiresAt });
}

export async function topup(env: Env, user: UserRow, amount: number) {
  return createInvoice(env, user, { kind: "topup", amount, credits: amount / TOPUP.idrPerCredit });
}

export async function subscribe(env: Env, user: UserRow, planId: string) {
  const plan = await findPlan(primaryDb(env), planId);
  if (!plan?.isPublic) throw new ApiError("NOT_FOUND", `No plan "${planId}". See GET /billing/plans.`);
  if (plan.priceIdr === 0)
    throw new ApiError("VALIDATION_ERROR", "The free plan needs no subscription.", { details: [{ path: "plan_id", message: "choose a paid plan" }] });
  return createInvoice(env, user, { kind: "subscription", amount: plan.priceIdr, plan });
}

/**
 * One delivery of Tripay's callback: the body as sent (the signature is over its bytes), the
 * signature and event it came with, and its body as JSON, read by the surface when asked: only
 * after the signature and the event hold, so an unsigned delivery is refused as that whatever its body.
 */
export type TripayDelivery = { rawBody: string; signature?: string; event?: string; json(): unknown };

/**
 * Whether a callback's signature is Tripay's over these exact bytes (the gate, src/gate, asks it
 * before the route runs; 503 PAYMENT_NOT_CONFIGURED when this deployment has no Tripay keys).
 */
export async function verifyTripaySignature(env: Env, rawBody: string, signature: string | undefined): Promise<boolean> {
  return verifyCallback(tripayConfig(env).privateKey, rawBody, signature);
}

/**
 * Tripay's payment_status callback. Signature first (constant time, over the raw body), then the
 * invoice by merchant ref and reference, the amount, and the one-way transition. Returns once
 * handled, also for repeated deliveries (the surface tells Tripay so, and Tripay stops retrying).
 */
export async function handleTripayCallback(env: Env, delivery: TripayDelivery): Promise<void> {
  const cfg = tripayConfig(env);
  if (!(await verifyCallback(cfg.privateKey, delivery.rawBody, delivery.signature))) {
    throw new ApiError("INVALID_SIGNATURE", "X-Callback-Signature is missing or does not match the body.");
  }
  if (delivery.event !== "payment_status") {
    throw new ApiError("VALIDATION_ERROR", `Unsupported X-Callback-Event "${delivery.event ?? ""}"; expected payment_status.`);
  }
  const parsed = tripayCallbackSchema.safeParse(delivery.json());
  if (!parsed.success)
    throw new ApiError("VALIDATION_ERROR", "The callback body is not a Tripay payment_status payload.", { details: issuesToDetails(parsed.error.issues) });
  const cb = parsed.data;
  const db = primaryDb(env);
  // merchant_ref is our invoice id. An invoice still waiting for the provider's answer (its create
  // call timed out, or our write after it failed) has no reference yet: the signature vouches, and
  // whichever of its transactions is paid becomes its reference.
  const inv = await findInvoiceById(db, cb.merchant_ref);
  const notFound = () => new ApiError("NOT_FOUND", `No invoice with merchant_ref "${cb.merchant_ref}" and reference "${cb.reference}".`);
  if (!inv) throw notFound();
  const pending = isPending(inv);
  // A PAID for another transaction of this invoice (the provider received our create request twice
  // and the payer paid the one we did not keep) on an invoice not yet paid: money received for this
  // invoice, so it settles it, with that transaction's reference, even after our kept one was closed.
  const sibling =
    !pending && inv.reference !== cb.reference && cb.status === "PAID" && (inv.status === "UNPAID" || inv.status === "EXPIRED" || inv.status === "FAILED");
  const own = pending || sibling || inv.reference === cb.reference;
  if (!own && (cb.status === "PAID" || cb.status === "REFUND")) {
    // Money moved on a transaction other than the one this invoice was settled with (paid twice), or a refund of
    // another transaction: not ours to decide.
    log.error("payment_reference_mismatch", { invoice: inv.id, reference: cb.reference, invoice_reference: inv.reference, status: cb.status });
    throw notFound();
  }
  // Every figure must agree with the invoice, whoever pays the fee (merchant, customer or split):
  // total_amount is the invoice amount plus fee_customer, and amount_received is the invoice amount
  // minus fee_merchant. One pair agreeing is not enough: the callback is signed, so figures that
  // disagree mean a provider-side error that a person must look at, never a credit.
  const fromTotal = cb.total_amount - (cb.fee_customer ?? 0);
  const fromReceived = cb.amount_received !== undefined ? cb.amount_received + (cb.fee_merchant ?? 0) : undefined;
  if (fromTotal !== inv.amount || (fromReceived !== undefined && fromReceived !== inv.amount)) {
    const detail = {
      invoice_id: inv.id,
      reference: cb.reference,
      status: cb.status,
      invoice_amount: inv.amount,
      total_amount: cb.total_amount,
      fee_customer: cb.fee_customer ?? null,
      fee_merchant: cb.fee_merchant ?? null,
      amount_received: cb.amount_received ?? null,
    };
    log.error("payment_amount_mismatch", detail);
    await audit(env, {}, { event: "payment_amount_mismatch", subjectId: inv.userId, detail });
    throw new ApiError(
      "PAYMENT_AMOUNT_MISMATCH",
      `The payment's figures (total ${cb.total_amount}, fee_customer ${cb.fee_customer ?? 0}, amount_received ${cb.amount_received ?? "absent"}, fee_merchant ${cb.fee_merchant ?? 0}) do not all agree with the invoice amount ${inv.amount}; nothing was changed, kept for manual review.`,
    );
  }
  // Another transaction the provider made for this invoice (it received the create request twice)
  // expiring or failing: the invoice's own transaction decides, so nothing changes.
  if (!own) return;
  if (cb.status === "PAID") {
    const { transitioned, unqueued } = await settlePaid(db, inv, Date.now(), addMonth, newId("sub"), pending || sibling ? cb.reference : undefined, sibling);
    if (unqueued) {
      // Paid, but its subscription could not be queued (other subscriptions of the user kept taking
      // the slot): a 503 makes Tripay deliver again, and that delivery queues it.
      log.error("subscription_not_queued", { invoice: inv.id, user: inv.userId });
      throw serviceUnavailable();
    }
    // The account's cached plan, balance and key lookups change with it, before the answer: if that
    // fails, Tripay delivers again, and a delivery for an invoice already paid refreshes them again
    // (the one that settled it may have failed after committing, its answer never sent).
    if (transitioned || inv.status === "PAID") await accountChanged(env, inv.userId);
  } else if ((cb.status === "EXPIRED" || cb.status === "FAILED") && pending) {
    // We never learnt which transaction is the invoice's: if the provider made two, the other may
    // still be paid. Closed provisionally, as our own expiry is: a signed PAID still settles it.
    await closeUnpaid(db, inv.id, "EXPIRED", "system");
  } else if (cb.status === "EXPIRED" || cb.status === "FAILED") {
    await closeUnpaid(db, inv.id, cb.status, "provider");
  } else if (cb.status === "REFUND" && inv.status === "PAID") {
    await refund(env, inv);
  } else if (cb.status === "REFUND" && inv.status === "REFUNDED") {
    // Delivered again: the delivery that refunded it may have failed before the account was refreshed.
    await accountChanged(env, inv.userId);
  }
  // UNPAID changes nothing; REFUND of an invoice that is not paid has nothing to take back.
}

/**
 * A paid invoice refunded through Tripay: a top-up's credits are taken back as far as the balance
 * allows (clamped in the statement that writes the entry, so never below zero even when refunds or
 * spending race it; the ledger entry says how many could not be), a subscription ends (a queued one
 * never starts) and the plan follows. Once per invoice.
 */
async function refund(env: Env, inv: InvoiceRow) {
  const db = primaryDb(env);
  const now = Date.now();
  const ref = `refund:${inv.id}`;
  const effect =
    inv.kind === "topup"
      ? { take: { credits: inv.credits ?? 0, pending: await pendingDebits(env, inv.userId), what: ledgerReasons.topupRefund(inv.id) } }
      : { note: ledgerReasons.subscriptionRefund(inv.id, inv.planId ?? "") };
  const detail: Record<string, number | string> =
    inv.kind === "topup" ? { invoice_id: inv.id, credits: inv.credits ?? 0 } : { invoice_id: inv.id, plan_id: inv.planId ?? "" };
  // The audit event is written in the refund's own batch: a delivery that fails after the refund
  // committed is answered 503, and the next one finds the invoice REFUNDED and writes nothing more.
  const refunded = await settleRefund(db, inv, now, effect, (condition) =>
    auditIf({}, { event: "payment_refunded", subjectId: inv.userId, detail }, condition),
  );
  if (refunded && inv.kind === "topup") {
    const taken = -((await ledgerEntryAmount(db, ref)) ?? 0);
    const short = (inv.credits ?? 0) - taken;
    if (short > 0) log.warn("refund_credits_short", { invoice: inv.id, user_id: inv.userId, credits: short });
  }
  await accountChanged(env, inv.userId);
}

export async function billingStatus(env: Env, userId: string) {
  const db = primaryDb(env);
  const now = Date.now();
  const sub = await activeSubscription(db, userId, now);
  if (!sub) throw new ApiError("NO_SUBSCRIPTION", "No active subscription: you are on the free plan. See GET /billing/plans.");
  const queued = await queuedSubscriptions(db, userId, now);
  return {
    subscription: {
      plan_id: sub.planId,
      plan_name: (await findPlan(db, sub.planId))?.name ?? sub.planId,
      period_start: iso(sub.periodStart),
      period_end: iso(sub.periodEnd),
    },
    queued: queued.map((q) => ({ plan_id: q.planId, period_start: iso(q.periodStart), period_end: iso(q.periodEnd) })),
    credits: await creditBalance(env, userId),
  };
}

/** Ledger sum minus the debits the account object has not written yet: exact at any moment. */
export async function creditBalance(env: Env, userId: string): Promise<number> {
  const [ledger, pending] = await Promise.all([ledgerBalance(primaryDb(env), userId), pendingDebits(env, userId)]);
  return ledger - pending;
}

/** The balance and a page of the ledger, newest first. */
export async function credits(env: Env, userId: string, paging: Paging) {
  const w = pageWindow(paging);
  const [balance, page] = await Promise.all([creditBalance(env, userId), ledgerPage(primaryDb(env), userId, w.limit, w.offset)]);
  const ledger = {
    items: page.rows.map((e) => ({ id: e.id, amount: e.amount, reason: e.reason, created_at: iso(e.createdAt) })),
    meta: w.meta(page.total),
  };
  return { balance, ledger };
}

/** The user's own invoices, newest first. */
export async function listInvoices(env: Env, userId: string, paging: Paging): Promise<PageOf<InvoiceView>> {
  const w = pageWindow(paging);
  const page = await invoicePage(primaryDb(env), userId, w.limit, w.offset);
  return { items: page.rows.map(invoiceView), meta: w.meta(page.total) };
}

/** One of the user's own invoices; another user's id is NOT_FOUND, the same as an unknown one. */
export async function getInvoice(env: Env, userId: string, id: string): Promise<InvoiceView> {
  const inv = id.length <= 64 ? await findInvoiceOfUser(primaryDb(env), userId, id) : undefined;
  if (!inv) throw new ApiError("NOT_FOUND", `No invoice "${id.slice(0, 64)}" in your account.`);
  return invoiceView(inv);
}

/**
 * The local payment simulator's payment of an unpaid invoice of the user (development only, see
 * ./simulator.ts): the callback Tripay would send, signed, through handleTripayCallback, so the
 * signature check, the amounts and the settlement are the real ones. NOT_FOUND elsewhere.
 */
export async function simulatePayment(env: Env, userId: string, id: string): Promise<InvoiceView> {
  if (!usesPaymentSimulator(env)) throw new ApiError("NOT_FOUND", "Payments are simulated only on a development Worker without a payment provider.");
  const inv = await getInvoice(env, userId, id);
  if (inv.status !== "UNPAID" || !inv.reference) return inv;
  const { body, signature } = await simulatedCallback({ id: inv.id, reference: inv.reference, amount: inv.amount }, "PAID", SIMULATOR_PRIVATE_KEY);
  await handleTripayCallback(env, { rawBody: body, signature, event: "payment_status", json: () => JSON.parse(body) });
  return getInvoice(env, userId, id);
}

/**
 * How long after a subscription started or ended the job keeps telling its account (cached key
 * lookups, the account object) to read the plan again: three runs, so a run that changed the plan
 * and failed before the account heard of it (or whose list of changes was lost) is completed by the next.
 */
const PLAN_REFRESH_WINDOW_MS = 15 * 60 * 1000;

/**
 * Cron: unpaid invoices past expiry become EXPIRED; lapsed subscriptions return users to their
 * current plan. Each step converges when run again: an expiry or a plan is set once (the same
 * statement finds nothing left to do), and the accounts are refreshed again for a while.
 */
export async function runScheduledBilling(env: Env, now = Date.now()) {
  const db = primaryDb(env);
  const expired = await expireOverdue(db, now, EXPIRY_MARGIN_MS);
  const changed = await reconcilePlans(db, now);
  const lately = await subscriptionBoundariesBetween(db, now - PLAN_REFRESH_WINDOW_MS, now);
  await Promise.all([...new Set([...changed, ...lately])].map((id) => accountChanged(env, id)));
  return { expired, plansChanged: changed.length };
}

// ---------------------------------------------------------------- admin

/** `records`: the audit events of the grant, written in the same batch as the ledger entry (both or neither). Returns the new balance. */
export async function grantCredits(env: Env, userId: string, amount: number, reason: string, adminId: string, records: Parameters<typeof batch>[1] = []) {
  const db = primaryDb(env);
  if (amount < 0 && (await creditBalance(env, userId)) + amount < 0) {
    throw new ApiError("VALIDATION_ERROR", "Taking that many credits would make the balance negative.", {
      details: [{ path: "amount", message: "exceeds the balance" }],
    });
  }
  const entry = { userId, amount, reason: ledgerReasons.admin(reason, adminId), ref: `admin:${crypto.randomUUID()}`, createdAt: Date.now() };
  await batch(db, [...records, appendLedgerOnce(db, entry)]);
  await accountChanged(env, userId);
  return creditBalance(env, userId);
}

/** `records`: the audit events of the grant, written in the same batch as the subscription. Returns the period granted. */
export async function grantSubscription(env: Env, userId: string, planId: string, months: number, records: Parameters<typeof insertSubscription>[2] = []) {
  const db = primaryDb(env);
  const plan = await findPlan(db, planId);
  if (!plan) throw new ApiError("NOT_FOUND", `No plan "${planId}".`);
  const now = Date.now();
  const end = addMonths(now, months);
  await insertSubscription(
    db,
    { id: newId("sub"), userId, planId, source: `admin:${crypto.randomUUID()}`, periodStart: now, periodEnd: end, createdAt: now },
    records,
  );
  await accountChanged(env, userId);
  return { plan_id: planId, period_start: iso(now), period_end: iso(end) };
}
