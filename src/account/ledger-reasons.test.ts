import { describe, expect, it } from "vitest";
import { ledgerReasons, readLedgerReason } from "./ledger-reasons";

describe("the credit ledger's reasons", () => {
  it("read back into their parts, whatever wrote them", () => {
    expect(readLedgerReason(ledgerReasons.usage(5))).toEqual({ kind: "usage" });
    expect(readLedgerReason(ledgerReasons.usage(-5))).toEqual({ kind: "usage_back" });
    expect(readLedgerReason(ledgerReasons.job("job_a1", 2000, 1007))).toEqual({ kind: "job", job: "job_a1", rows: 2000, credits: 1007 });
    expect(readLedgerReason(ledgerReasons.topup("inv_x", false))).toEqual({ kind: "topup", invoice: "inv_x", afterExpiry: false });
    expect(readLedgerReason(ledgerReasons.topup("inv_x", true))).toEqual({ kind: "topup", invoice: "inv_x", afterExpiry: true });
    // The take-back's end is written by SQL (printf('%,d', ...)): as the statement writes it.
    expect(readLedgerReason(`${ledgerReasons.topupRefund("inv_y")}: 10,000 credits taken back; 2,500 could not be (already spent)`)).toEqual({
      kind: "topup_refund",
      invoice: "inv_y",
      taken: 10000,
      notTaken: 2500,
    });
    expect(readLedgerReason(`${ledgerReasons.topupRefund("inv_y")}: 300 credits taken back`)).toMatchObject({ taken: 300, notTaken: 0 });
    expect(readLedgerReason(ledgerReasons.subscriptionRefund("inv_z", "pro"))).toEqual({ kind: "subscription_refund", invoice: "inv_z", plan: "pro" });
    expect(readLedgerReason(ledgerReasons.admin("goodwill (outage)", "user_b"))).toEqual({ kind: "admin", text: "goodwill (outage)" });
    expect(readLedgerReason("written by hand")).toEqual({ kind: "other", text: "written by hand" });
  });
});
