/**
 * The credit ledger's reasons: written in English by whoever appends an entry (the API's
 * `reason`, like every API text), in the formats below, and read back here into their parts so a
 * page in another language can say the same thing in its own words (src/portal/ledger-copy.ts).
 * Formats and reader side by side, so they cannot drift apart (ledger-reasons.test.ts).
 */

const count = (n: number) => n.toLocaleString("en");

export const ledgerReasons = {
  /** The account object's flush: calls beyond the monthly quota (positive `credits`), or credits given back for calls not served. */
  usage: (credits: number) => (credits > 0 ? "usage beyond the monthly quota" : "credits given back: calls not served"),
  job: (jobId: string, rows: number, credits: number) => `bulk job ${jobId}: ${count(rows)} rows, ${count(credits)} beyond the monthly quota`,
  topup: (invoiceId: string, afterExpiry: boolean) => `top-up ${invoiceId}${afterExpiry ? " (paid after expiry)" : ""}`,
  /** The start of a top-up refund's reason; the statement that writes it adds how many credits were taken back (billing/queries.ts). */
  topupRefund: (invoiceId: string) => `refund of top-up ${invoiceId}`,
  subscriptionRefund: (invoiceId: string, planId: string) => `refund of subscription ${invoiceId} (${planId}): the plan ends`,
  admin: (text: string, adminId: string) => `${text} (admin ${adminId})`,
};

/** A reason in its parts; `other` keeps a text written before these formats (or by hand) as it is. */
export type LedgerReason =
  | { kind: "usage" }
  | { kind: "usage_back" }
  | { kind: "job"; job: string; rows: number; credits: number }
  | { kind: "topup"; invoice: string; afterExpiry: boolean }
  | { kind: "topup_refund"; invoice: string; taken: number; notTaken: number }
  | { kind: "subscription_refund"; invoice: string; plan: string }
  | { kind: "admin"; text: string }
  | { kind: "other"; text: string };

const num = (s: string | undefined) => Number((s ?? "0").replaceAll(",", ""));

/** The parts of a reason written by `ledgerReasons` (and by the take-back statement). */
export function readLedgerReason(reason: string): LedgerReason {
  if (reason === ledgerReasons.usage(1)) return { kind: "usage" };
  if (reason === ledgerReasons.usage(0)) return { kind: "usage_back" };
  let m = /^bulk job (\S+): ([\d,]+) rows, ([\d,]+) beyond the monthly quota$/.exec(reason);
  if (m) return { kind: "job", job: m[1], rows: num(m[2]), credits: num(m[3]) };
  m = /^top-up (\S+?)( \(paid after expiry\))?$/.exec(reason);
  if (m) return { kind: "topup", invoice: m[1], afterExpiry: Boolean(m[2]) };
  m = /^refund of top-up (\S+): ([\d,]+) credits taken back(?:; ([\d,]+) could not be \(already spent\))?$/.exec(reason);
  if (m) return { kind: "topup_refund", invoice: m[1], taken: num(m[2]), notTaken: num(m[3]) };
  m = /^refund of subscription (\S+) \(([^)]*)\): the plan ends$/.exec(reason);
  if (m) return { kind: "subscription_refund", invoice: m[1], plan: m[2] };
  m = /^([\s\S]*) \(admin \S+\)$/.exec(reason);
  if (m) return { kind: "admin", text: m[1] };
  return { kind: "other", text: reason };
}
