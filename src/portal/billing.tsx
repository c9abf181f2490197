/** @jsxImportSource hono/jsx */
/**
 * Portal pages: plans and billing (balance, ledger, invoices, receipts, billing details), top-up and
 * subscribe (an invoice is paid on its own page: payment.tsx), and a receipt to print.
 */
import { Hono } from "hono";
import { z } from "zod";
import { receiptHtml } from "../billing/receipt-page";
import { billingDetailsOf, formatNpwp, getReceipt, listReceipts, saveBillingDetailsOf } from "../billing/receipts";
import { billingDetailsInput, type invoiceSchema, planIdInput, type planSchema, type ReceiptView, topupAmountInput } from "../billing/schemas";
import { billingStatus, credits, listInvoices, listPlans, subscribe, topup } from "../billing/service";
import { usesPaymentSimulator } from "../billing/simulator";
import type { UserRow } from "../db/schema";
import { ApiError } from "../lib/errors";
import { ListTable } from "./components";
import { errorNotice, flash, form, formInteger, type PortalContext, type PortalEnv, page, type SignedInEnv, signedIn } from "./context";
import { formatDate, formatIdr, formatNumber } from "./i18n";
import { Csrf, Layout, type Notice, NoticeBox, type Page, Pager, VerifyFirst } from "./layout";
import { ledgerReasonText } from "./ledger-copy";
import { planFeatures } from "./plan-copy";

export type PlanView = z.infer<typeof planSchema>;
type InvoiceView = z.infer<typeof invoiceSchema>;
type Paged = { page: number; total_pages: number };

export const billingPages = new Hono<PortalEnv>();

async function billingPage(c: PortalContext<SignedInEnv>, u: UserRow, notice: Notice, status: 200 | 400 | 403 | 404 | 502 | 503 | 504 = 200) {
  const ledgerPage = Number(c.req.query("ledger_page") ?? "1");
  const paging = { page: Number.isInteger(ledgerPage) && ledgerPage > 0 ? ledgerPage : 1, per_page: 20 };
  const [plans, sub, cr, invoices, receipts, details] = await Promise.all([
    listPlans(c.env),
    billingStatus(c.env, u.id).catch((e) => {
      if (e instanceof ApiError && e.code === "NO_SUBSCRIPTION") return null;
      throw e;
    }),
    credits(c.env, u.id, paging),
    listInvoices(c.env, u.id, { page: 1, per_page: 10 }),
    listReceipts(c.env, u.id, PORTAL),
    billingDetailsOf(c.env, u.id),
  ]);
  return c.html(
    <BillingPage
      p={page(c)}
      notice={notice}
      plans={plans}
      plan={u.plan}
      subscription={sub ? sub.subscription : null}
      balance={cr.balance}
      ledger={cr.ledger.items}
      ledgerMeta={cr.ledger.meta}
      invoices={invoices.items}
      receipts={receipts}
      details={details}
      simulated={usesPaymentSimulator(c.env)}
    />,
    status,
  );
}

/** The portal's own path: receipts link here. */
const PORTAL = "/portal";

billingPages.get("/billing", signedIn, async (c) => {
  const u = c.get("user");
  return billingPage(c, u, flash(c));
});

function billingFailure(c: PortalContext<SignedInEnv>, u: UserRow, e: unknown) {
  const n = errorNotice(c, e);
  const s = e instanceof ApiError ? e.status : 400;
  return billingPage(c, u, n, s === 403 || s === 404 || s === 502 || s === 503 || s === 504 ? s : 400);
}

billingPages.post("/billing/topup", signedIn, async (c) => {
  const u = c.get("user");
  try {
    const { amount } = await form(c, z.object({ amount: z.preprocess(formInteger, topupAmountInput) }));
    const invoice = await topup(c.env, u, amount);
    return c.redirect(`/portal/billing/invoices/${invoice.id}`, 303);
  } catch (e) {
    return billingFailure(c, u, e);
  }
});

billingPages.post("/billing/subscribe", signedIn, async (c) => {
  const u = c.get("user");
  try {
    const { plan_id } = await form(c, z.object({ plan_id: planIdInput }));
    const invoice = await subscribe(c.env, u, plan_id);
    return c.redirect(`/portal/billing/invoices/${invoice.id}`, 303);
  } catch (e) {
    return billingFailure(c, u, e);
  }
});

/** The billing details form: its three fields as the API takes them (blank clears one). */
const detailsForm = z.preprocess((body) => {
  const b = body as Record<string, unknown>;
  return { company_name: b.company_name, npwp: b.npwp, address: b.address };
}, billingDetailsInput);

billingPages.post("/billing/details", signedIn, async (c) => {
  const u = c.get("user");
  try {
    await saveBillingDetailsOf(c.env, u.id, await form(c, detailsForm));
    return c.redirect("/portal/billing?msg=details_saved#details", 303);
  } catch (e) {
    return billingFailure(c, u, e);
  }
});

/** A receipt as its own page, to print or save as PDF (the same page as GET /billing/receipts/:id with Accept: text/html). */
billingPages.get("/billing/receipts/:id", signedIn, async (c) => {
  const receipt = await getReceipt(c.env, c.get("user").id, c.req.param("id"), PORTAL);
  return c.html(receiptHtml(receipt, "/portal/billing#receipts"));
});

// ---------------------------------------------------------------- views

function BillingPage(props: {
  p: Page;
  notice: Notice;
  plans: PlanView[];
  plan: string;
  subscription: { plan_name: string; period_start: string; period_end: string } | null;
  balance: number;
  ledger: { id: number; amount: number; reason: string; created_at: string }[];
  ledgerMeta: Paged;
  invoices: InvoiceView[];
  receipts: ReceiptView[];
  details: { company_name: string | null; npwp: string | null; address: string | null };
  simulated: boolean;
}) {
  const { p } = props;
  const verified = p.user?.emailVerified ?? false;
  return (
    <Layout p={p} title={p.t("billing_title")}>
      <h1>{p.t("billing_title")}</h1>
      <NoticeBox n={props.notice} />
      {verified ? null : <VerifyFirst p={p} email={p.user?.email ?? ""} />}
      <div class="grid">
        <div class="card">
          <div class="muted">{p.t("current_plan")}</div>
          <div class="big">{props.plans.find((x) => x.id === props.plan)?.name ?? props.plan}</div>
          {props.subscription ? (
            <div class="muted">
              {p.t("period")}: {formatDate(p.lang, props.subscription.period_start)} – {formatDate(p.lang, props.subscription.period_end)}
            </div>
          ) : (
            <div class="muted">{p.t("no_subscription")}</div>
          )}
        </div>
        <div class="card">
          <div class="muted">{p.t("credits_balance")}</div>
          <div class="big" data-testid="balance">
            {formatNumber(p.lang, props.balance)}
          </div>
          <div class="muted">{p.t("credits_hint")}</div>
        </div>
      </div>
      <div class="card">
        <h2>{p.t("topup_title")}</h2>
        <form method="post" action="/portal/billing/topup" class="row">
          <Csrf p={p} />
          <div>
            <label for="amount">{p.t("amount_rp")}</label>
            <input id="amount" name="amount" type="number" min={10000} max={5000000} step={1000} value="20000" required disabled={!verified} />
          </div>
          <button type="submit" disabled={!verified}>
            {p.t("topup_button")}
          </button>
        </form>
        <p class="hint">{p.t("topup_hint")}</p>
        {props.simulated ? (
          <p class="notice warn" data-testid="payment-simulator">
            {p.t("pay_simulator_billing")}
          </p>
        ) : null}
      </div>
      <h2>{p.t("plans")}</h2>
      <div class="plans">
        {props.plans.map((pl) => (
          <div class={`card plan${pl.id === props.plan ? " current" : ""}`}>
            <h3>
              {pl.name}
              {pl.id === props.plan ? <span class="badge ok">{p.t("current_plan")}</span> : null}
            </h3>
            <div class="price">
              {formatIdr(p.lang, pl.price_idr)} <span class="muted">{p.t("per_month")}</span>
            </div>
            <div>
              {formatNumber(p.lang, pl.monthly_quota)} {p.t("quota")}
            </div>
            <div class="muted">{p.t("plan_log_days", { days: pl.request_log_days })}</div>
            {pl.rate_limit_per_minute ? (
              <div class="muted">
                {formatNumber(p.lang, pl.rate_limit_per_minute)} {p.t("rate")}
              </div>
            ) : null}
            <ul>
              {planFeatures(p.lang, pl).map((f) => (
                <li>{f}</li>
              ))}
            </ul>
            {pl.price_idr > 0 ? (
              <form method="post" action="/portal/billing/subscribe">
                <Csrf p={p} />
                <input type="hidden" name="plan_id" value={pl.id} />
                <button type="submit" class={pl.id === props.plan ? "secondary full" : "full"} disabled={!verified}>
                  {p.t("subscribe")}
                </button>
              </form>
            ) : null}
          </div>
        ))}
      </div>
      <div class="card">
        <h2>{p.t("invoices")}</h2>
        <ListTable
          rows={props.invoices}
          empty={p.t("no_invoices")}
          wrap
          columns={[
            {
              label: p.t("invoice"),
              cell: (inv) => (
                <a href={`/portal/billing/invoices/${inv.id}`}>{inv.kind === "topup" ? `${p.t("topup_title")}` : `${p.t("subscribe")}: ${inv.plan_id}`}</a>
              ),
            },
            { label: p.t("amount"), num: true, cell: (inv) => formatIdr(p.lang, inv.amount) },
            { label: p.t("status"), cell: (inv) => <span class={`badge ${inv.status}`}>{p.t(`inv_${inv.status}` as "inv_PAID")}</span> },
            { label: p.t("created"), cell: (inv) => formatDate(p.lang, inv.created_at) },
          ]}
        />
      </div>
      <div class="card" id="receipts">
        <h2>{p.t("receipts")}</h2>
        <ListTable
          rows={props.receipts}
          empty={p.t("receipts_none")}
          testid="receipts"
          wrap
          columns={[
            {
              label: p.t("receipt_number"),
              cell: (r) => (
                <>
                  <a href={r.html_url} aria-label={`${r.number}: ${p.t("receipt_open")}`}>
                    {r.number}
                  </a>
                  {r.status === "refunded" ? <span class="badge err">{p.t("receipt_refunded")}</span> : null}
                </>
              ),
            },
            { label: p.t("receipt_for"), cell: (r) => (p.lang === "en" ? r.items[0]?.description_en : r.items[0]?.description) },
            { label: p.t("amount"), num: true, cell: (r) => formatIdr(p.lang, r.total) },
            { label: p.t("when"), cell: (r) => formatDate(p.lang, r.issued_at) },
          ]}
        />
      </div>
      <div class="card" id="details">
        <h2>{p.t("billing_details")}</h2>
        <p class="hint">{p.t("billing_details_hint")}</p>
        <form method="post" action="/portal/billing/details" data-testid="details-form">
          <Csrf p={p} />
          <div class="grid">
            <div>
              <label for="company_name">{p.t("company_name")}</label>
              <input id="company_name" name="company_name" type="text" maxlength={200} value={props.details.company_name ?? ""} autocomplete="organization" />
            </div>
            <div>
              <label for="npwp">{p.t("npwp")}</label>
              <input
                id="npwp"
                name="npwp"
                type="text"
                inputmode="numeric"
                maxlength={24}
                value={formatNpwp(props.details.npwp) ?? ""}
                aria-describedby="npwp-hint"
              />
              <p class="hint" id="npwp-hint">
                {p.t("npwp_hint")}
              </p>
            </div>
          </div>
          <label for="address">{p.t("address")}</label>
          <input id="address" name="address" type="text" maxlength={300} value={props.details.address ?? ""} autocomplete="street-address" />
          <button type="submit" class="mt">
            {p.t("details_save")}
          </button>
        </form>
      </div>
      <div class="card">
        <h2>{p.t("ledger")}</h2>
        <ListTable
          rows={props.ledger}
          empty={p.t("ledger_empty")}
          wrap
          columns={[
            { label: p.t("when"), cell: (e) => formatDate(p.lang, e.created_at) },
            { label: p.t("reason"), cell: (e) => ledgerReasonText(p, e.reason) },
            {
              label: p.t("amount"),
              num: true,
              cell: (e) => (
                <>
                  {e.amount > 0 ? "+" : ""}
                  {formatNumber(p.lang, e.amount)}
                </>
              ),
            },
          ]}
        />
        <Pager p={p} meta={props.ledgerMeta} href={(n) => `/portal/billing?ledger_page=${n}`} />
      </div>
    </Layout>
  );
}
