/**
 * Receipts (kwitansi) of settled payments and the billing details they name (src/billing/receipts.ts).
 */
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/** The buyer as a receipt names them, when the account gave it: a company and its NPWP, an address. */
export const billingDetails = sqliteTable("billing_details", {
  userId: text("user_id").primaryKey(),
  companyName: text("company_name"),
  /** Digits only: 15 (the format before 2024) or 16 (NIK or NPWP16). */
  npwp: text("npwp"),
  address: text("address"),
  updatedAt: integer("updated_at").notNull(),
});

/**
 * One receipt per paid invoice, issued in the batch that settles it (or, for invoices paid before
 * receipts existed, when first asked for). The buyer is copied at issue: a receipt says what was
 * true when it was paid, whatever the details say later. `seq` numbers receipts in issue order.
 */
export const receipts = sqliteTable(
  "receipts",
  {
    invoiceId: text("invoice_id").primaryKey(),
    userId: text("user_id").notNull(),
    seq: integer("seq").notNull(),
    issuedAt: integer("issued_at").notNull(),
    buyerName: text("buyer_name").notNull(),
    buyerEmail: text("buyer_email").notNull(),
    companyName: text("company_name"),
    npwp: text("npwp"),
    address: text("address"),
  },
  (t) => [uniqueIndex("receipts_seq_uq").on(t.seq), index("receipts_user_idx").on(t.userId, t.seq)],
);
