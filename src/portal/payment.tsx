/** @jsxImportSource hono/jsx */
/**
 * Portal page: paying an invoice (a top-up or a plan) by QRIS. The code to scan, its countdown and
 * its live status (the page polls /status until the invoice is paid, then shows the new balance and
 * the receipt), and in development without a payment provider the simulator's "pay" button.
 * The invoices themselves are listed on the billing page (billing.tsx).
 */
import { Hono } from "hono";
import type { z } from "zod";
import type { invoiceSchema } from "../billing/schemas";
import { creditBalance, getInvoice, simulatePayment } from "../billing/service";
import { usesPaymentSimulator } from "../billing/simulator";
import { ApiError } from "../lib/errors";
import { lang, type PortalEnv, page, signedIn, visitor } from "./context";
import { formatDate, formatIdr, formatNumber } from "./i18n";
import { Csrf, Layout, type Page } from "./layout";

type InvoiceView = z.infer<typeof invoiceSchema>;

export const paymentPages = new Hono<PortalEnv>();

paymentPages.get("/billing/invoices/:id", signedIn, async (c) => {
  const u = c.get("user");
  const [invoice, balance] = await Promise.all([getInvoice(c.env, u.id, c.req.param("id")), creditBalance(c.env, u.id)]);
  return c.html(<InvoicePage p={page(c)} invoice={invoice} balance={balance} simulated={usesPaymentSimulator(c.env)} />);
});

/** The local payment simulator's "pay" button (development without a payment provider; NOT_FOUND elsewhere). */
paymentPages.post("/billing/invoices/:id/simulate", signedIn, async (c) => {
  const invoice = await simulatePayment(c.env, c.get("user").id, c.req.param("id"));
  return c.redirect(`/portal/billing/invoices/${invoice.id}`, 303);
});

/** What the payment page polls: the invoice (the API's own view of it) and the balance, for the signed-in owner only. */
paymentPages.get("/billing/invoices/:id/status", visitor, async (c) => {
  const u = c.get("portalUser");
  if (!u) throw new ApiError("UNAUTHORIZED", "Log in again.");
  const [invoice, balance] = await Promise.all([getInvoice(c.env, u.id, c.req.param("id")), creditBalance(c.env, u.id)]);
  return c.json({ invoice, balance, balance_text: formatNumber(lang(c), balance) });
});

// ---------------------------------------------------------------- views

function InvoicePage(props: { p: Page; invoice: InvoiceView; balance: number; simulated: boolean }) {
  const { p, invoice: inv } = props;
  const labels = JSON.stringify({
    expires_in: p.t("expires_in"),
    inv_UNPAID: p.t("inv_UNPAID"),
    inv_PAID: p.t("inv_PAID"),
    inv_EXPIRED: p.t("inv_EXPIRED"),
    inv_FAILED: p.t("inv_FAILED"),
  });
  return (
    <Layout p={p} title={p.t("pay_title")}>
      <h1>{p.t("pay_title")}</h1>
      <div
        class="card"
        data-invoice-url={`/portal/billing/invoices/${inv.id}/status`}
        data-expires={inv.expires_at ?? ""}
        data-status={inv.status}
        data-labels={labels}
      >
        <div class={inv.status === "UNPAID" ? "pay" : "pay closed"}>
          {inv.qr_image && inv.status === "UNPAID" ? (
            <div id="invoice-qr">
              <img src={inv.qr_image} alt={p.t("qr_alt")} width={320} height={320} />
            </div>
          ) : null}
          <div class="stack">
            <div>
              <span id="invoice-status" class={`badge ${inv.status}`} data-testid="invoice-status">
                {p.t(`inv_${inv.status}` as "inv_PAID")}
              </span>{" "}
              <span id="invoice-countdown" class="muted"></span>
            </div>
            <div class="big">{formatIdr(p.lang, inv.amount)}</div>
            <div class="muted">
              {inv.kind === "topup" ? `${formatNumber(p.lang, inv.credits ?? 0)} ${p.t("credits_unit")}` : `${p.t("plan")}: ${inv.plan_id}`} · {inv.id}
            </div>
            {inv.status === "UNPAID" ? (
              <>
                <p id="invoice-scan">{p.t("pay_scan")}</p>
                <p id="invoice-deadline" class="muted">
                  {p.t("pay_before")}: {formatDate(p.lang, inv.expires_at)}
                </p>
                {props.simulated ? (
                  <form method="post" action={`/portal/billing/invoices/${inv.id}/simulate`} class="notice warn">
                    <Csrf p={p} />
                    <p>{p.t("pay_simulator_note")}</p>
                    <button type="submit" data-testid="pay-simulated">
                      {p.t("pay_simulated")}
                    </button>
                  </form>
                ) : null}
              </>
            ) : inv.paid_at ? (
              <p class="muted">
                {p.t("inv_PAID")}: {formatDate(p.lang, inv.paid_at)}
              </p>
            ) : null}
            <div id="invoice-paid" class="notice ok" hidden={inv.status !== "PAID"}>
              {p.t("paid_thanks")} {p.t("new_balance")}:{" "}
              <strong id="invoice-balance" data-testid="invoice-balance">
                {formatNumber(p.lang, props.balance)}
              </strong>
              <div>
                <a href={`/portal/billing/receipts/${inv.id}`} data-testid="invoice-receipt">
                  {p.t("receipt_open")}
                </a>
              </div>
            </div>
            <p>
              <a href="/portal/billing">{p.t("back_to_billing")}</a>
            </p>
          </div>
        </div>
      </div>
    </Layout>
  );
}
