/** Plans, payments, subscriptions and the credit ledger (src/billing; the account reads plans and the ledger: src/account/queries.ts). */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

export const plans = sqliteTable("plans", {
  id: text("id").primaryKey(), // free, starter, pro, business
  name: text("name").notNull(),
  priceIdr: integer("price_idr").notNull(), // per month
  monthlyQuota: integer("monthly_quota").notNull(), // calls included per UTC month
  rateLimitPerMinute: integer("rate_limit_per_minute"), // null: not rate limited (internal plan)
  features: text("features", { mode: "json" }).$type<string[]>().notNull(),
  sort: integer("sort").notNull(),
  /** Listed in /billing/plans and purchasable; the `internal` plan (own services, benchmarks) is granted by admins only. */
  isPublic: integer("is_public", { mode: "boolean" }).notNull(),
});

/** A QRIS payment request at Tripay: a credit top-up or a month of a plan. */
export const invoices = sqliteTable(
  "invoices",
  {
    id: text("id").primaryKey(), // inv_...; also Tripay's merchant_ref
    userId: text("user_id").notNull(),
    kind: text("kind", { enum: ["topup", "subscription"] }).notNull(),
    planId: text("plan_id"),
    credits: integer("credits"),
    amount: integer("amount").notNull(), // IDR
    /** Tripay's reference; `pending:<id>` from the moment the invoice is recorded until Tripay's answer is adopted. */
    reference: text("reference").notNull(),
    status: text("status", { enum: ["UNPAID", "PAID", "EXPIRED", "FAILED", "REFUNDED"] }).notNull(),
    /**
     * Who decided a final status: `provider` (a signed callback: final) or `system` (our expiry job,
     * or a create call that failed: provisional, a signed PAID still settles it). Null while UNPAID.
     */
    closedBy: text("closed_by", { enum: ["provider", "system"] }),
    qrString: text("qr_string").notNull(),
    qrUrl: text("qr_url"),
    expiresAt: integer("expires_at").notNull(),
    paidAt: integer("paid_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("invoices_reference_uq").on(t.reference),
    index("invoices_user_idx").on(t.userId, t.createdAt),
    index("invoices_unpaid_idx").on(t.status, t.expiresAt),
  ],
);

/** One row per paid subscription invoice (or admin grant); the unique source guards double activation. */
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").notNull(),
    planId: text("plan_id").notNull(),
    source: text("source").notNull(), // invoice:<id> | admin:<uuid>
    periodStart: integer("period_start").notNull(),
    periodEnd: integer("period_end").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("subscriptions_source_uq").on(t.source), index("subscriptions_user_idx").on(t.userId, t.periodEnd)],
);

/** Append-only. Balance = sum(amount). `ref` is unique: each credit or debit is written exactly once. */
export const creditLedger = sqliteTable(
  "credit_ledger",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    amount: integer("amount").notNull(), // credits: + top-up/grant, - usage/take
    reason: text("reason").notNull(),
    ref: text("ref").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("credit_ledger_ref_uq").on(t.ref), index("credit_ledger_user_idx").on(t.userId, t.id)],
);
