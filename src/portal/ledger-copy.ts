/**
 * A credit ledger entry's reason in the page's language: the API writes it in English
 * (src/account/ledger-reasons.ts), the portal reads its parts and says them in its own words. A
 * reason of no known format (written before them) is shown as written.
 */
import { readLedgerReason } from "../account/ledger-reasons";
import { formatNumber } from "./i18n";
import type { Page } from "./layout";

export function ledgerReasonText(p: Pick<Page, "t" | "lang">, reason: string): string {
  const r = readLedgerReason(reason);
  const n = (x: number) => formatNumber(p.lang, x);
  switch (r.kind) {
    case "usage":
      return p.t("ledger_usage");
    case "usage_back":
      return p.t("ledger_usage_back");
    case "job":
      return p.t("ledger_job", { job: r.job, rows: n(r.rows), credits: n(r.credits) });
    case "topup":
      return p.t(r.afterExpiry ? "ledger_topup_late" : "ledger_topup", { invoice: r.invoice });
    case "topup_refund":
      return (
        p.t("ledger_topup_refund", { invoice: r.invoice, taken: n(r.taken) }) +
        (r.notTaken > 0 ? p.t("ledger_topup_refund_short", { short: n(r.notTaken) }) : "")
      );
    case "subscription_refund":
      return p.t("ledger_subscription_refund", { invoice: r.invoice, plan: r.plan });
    case "admin":
      return p.t("ledger_admin", { text: r.text });
    case "other":
      return r.text;
  }
}
