/**
 * Receipts (kwitansi) and the billing details they name. A receipt is issued in the batch that
 * settles its payment (queries.ts `settlePaid`), numbered in issue order and with the buyer as the
 * account's billing details said then; payments settled before receipts existed get theirs when
 * first listed. The seller is the deployment's (RECEIPT_SELLER_* in wrangler.toml). The amount is
 * also written in Indonesian words (terbilang), as an Indonesian finance department files it.
 */
import { primaryDb } from "../db/client";
import { ApiError } from "../lib/errors";
import { rupiahInWords } from "../lib/terbilang";
import { iso } from "../lib/time";
import { findBillingDetails, findReceipt, issueMissingReceipts, type ReceiptRow, receiptsOfUser, saveBillingDetails } from "./queries";
import type { BillingDetailsInput, ReceiptView } from "./schemas";
import { listPlans } from "./service";

/** Receipts a list shows at most (newest first). */
const LISTED_RECEIPTS = 100;

export async function billingDetailsOf(env: Env, userId: string) {
  const d = await findBillingDetails(primaryDb(env), userId);
  return { company_name: d?.companyName ?? null, npwp: d?.npwp ?? null, address: d?.address ?? null, updated_at: iso(d?.updatedAt) };
}

/** Changes the fields given (the others stay). Receipts already issued keep what they said. */
export async function saveBillingDetailsOf(env: Env, userId: string, input: BillingDetailsInput) {
  const db = primaryDb(env);
  const old = await findBillingDetails(db, userId);
  await saveBillingDetails(db, {
    userId,
    companyName: input.company_name !== undefined ? input.company_name : (old?.companyName ?? null),
    npwp: input.npwp !== undefined ? input.npwp : (old?.npwp ?? null),
    address: input.address !== undefined ? input.address : (old?.address ?? null),
    updatedAt: Date.now(),
  });
  return billingDetailsOf(env, userId);
}

/** An NPWP as printed: the 15-digit form grouped 99.999.999.9-999.999, the 16-digit one as it is. */
export function formatNpwp(digits: string | null): string | null {
  if (!digits) return null;
  const m = /^(\d{2})(\d{3})(\d{3})(\d)(\d{3})(\d{3})$/.exec(digits);
  return m ? `${m[1]}.${m[2]}.${m[3]}.${m[4]}-${m[5]}.${m[6]}` : digits;
}

const JAKARTA = "Asia/Jakarta";
const jakartaDate = (ms: number, lang: "id" | "en") =>
  new Date(ms).toLocaleDateString(lang === "id" ? "id-ID" : "en-GB", { dateStyle: "long", timeZone: JAKARTA });

function receiptView(r: ReceiptRow, env: Env, planNames: Map<string, string>, portal: string): ReceiptView {
  const inv = r.invoice;
  const year = new Date(r.issuedAt).toLocaleString("en-US", { year: "numeric", timeZone: JAKARTA });
  const credits = (inv.credits ?? 0).toLocaleString("id-ID");
  const plan = planNames.get(inv.planId ?? "") ?? inv.planId ?? "";
  const period = (lang: "id" | "en") => (r.periodStart && r.periodEnd ? ` (${jakartaDate(r.periodStart, lang)} – ${jakartaDate(r.periodEnd, lang)})` : "");
  const item =
    inv.kind === "topup"
      ? { description: `Kredit Wilayah API: ${credits} kredit`, description_en: `Wilayah API credits: ${(inv.credits ?? 0).toLocaleString("en")} credits` }
      : { description: `Langganan Wilayah API paket ${plan}, 1 bulan${period("id")}`, description_en: `Wilayah API ${plan} plan, 1 month${period("en")}` };
  return {
    id: inv.id,
    number: `KW-${year}-${String(r.seq).padStart(6, "0")}`,
    issued_at: iso(r.issuedAt),
    status: inv.status === "REFUNDED" ? "refunded" : "paid",
    kind: inv.kind,
    seller: { name: env.RECEIPT_SELLER_NAME || "Wilayah API", address: env.RECEIPT_SELLER_ADDRESS || null, npwp: env.RECEIPT_SELLER_NPWP || null },
    buyer: { name: r.buyerName, email: r.buyerEmail, company_name: r.companyName, npwp: r.npwp, address: r.address },
    payment: { provider: "Tripay", method: "QRIS", reference: inv.reference.startsWith("pending:") ? null : inv.reference },
    items: [{ ...item, quantity: 1, unit_price: inv.amount, amount: inv.amount }],
    total: inv.amount,
    currency: "IDR",
    total_in_words: rupiahInWords(inv.amount),
    html_url: `${portal}/billing/receipts/${inv.id}`,
  };
}

const planNamesOf = async (env: Env) => new Map((await listPlans(env)).map((p) => [p.id, p.name]));

/** The user's receipts, newest first (issuing those of payments settled before receipts existed). `portal`: the portal's URL, for `html_url`. */
export async function listReceipts(env: Env, userId: string, portal: string): Promise<ReceiptView[]> {
  const db = primaryDb(env);
  await issueMissingReceipts(db, userId);
  const [rows, names] = await Promise.all([receiptsOfUser(db, userId, LISTED_RECEIPTS), planNamesOf(env)]);
  return rows.map((r) => receiptView(r, env, names, portal));
}

/** One of the user's receipts by its invoice id; an unpaid, unknown or another user's invoice is NOT_FOUND. */
export async function getReceipt(env: Env, userId: string, id: string, portal: string): Promise<ReceiptView> {
  const db = primaryDb(env);
  const notFound = () =>
    new ApiError("NOT_FOUND", `No receipt "${id.slice(0, 64)}" in your account: receipts are for paid invoices (GET /billing/receipts lists them).`);
  if (id.length > 64) throw notFound();
  let row = await findReceipt(db, userId, id);
  if (!row) {
    await issueMissingReceipts(db, userId);
    row = await findReceipt(db, userId, id);
  }
  if (!row) throw notFound();
  return receiptView(row, env, await planNamesOf(env), portal);
}
