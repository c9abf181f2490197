/** @jsxImportSource hono/jsx */
/**
 * The portal's pages: plain functions of already fetched data (the routes call the services).
 * No inline script or style: behaviour comes from /portal/assets/app.js, looks from app.css.
 */
import type { Child } from "hono/jsx";
import { raw } from "hono/html";
import { formatDate, formatIdr, formatNumber, type Lang, type T } from "./i18n";

export type Page = {
  lang: Lang;
  t: T;
  csrf: string;
  path: string;
  user: { name: string; email: string; isAdmin: boolean; emailVerified: boolean } | null;
  oauth?: { google: boolean; github: boolean };
};

export type Notice = { kind: "ok" | "err" | "warn"; text: string; details?: string[] } | null;

const ASSETS = "/portal/assets";

export function Layout(props: { p: Page; title: string; children?: Child; challenge?: boolean }) {
  const { p } = props;
  const nav = (href: string, label: string) => (
    <a href={href} aria-current={p.path === href || p.path.startsWith(`${href}/`) ? "page" : undefined}>
      {label}
    </a>
  );
  const other: Lang = p.lang === "en" ? "id" : "en";
  return (
    <>
      {raw("<!doctype html>")}
      <html lang={p.lang}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>{`${props.title} · Wilayah API`}</title>
          <link rel="stylesheet" href={`${ASSETS}/app.css`} />
          <script src={`${ASSETS}/app.js`} defer></script>
          {props.challenge ? <script src="https://challenges.cloudflare.com/turnstile/v0/api.js" async defer></script> : null}
        </head>
        <body>
          <header class="top">
            <div class="bar">
              <a class="brand" href="/portal">
                {p.t("brand")}
              </a>
              <nav>
                {p.user ? (
                  <>
                    {nav("/portal/keys", p.t("nav_keys"))}
                    {nav("/portal/usage", p.t("nav_usage"))}
                    {nav("/portal/billing", p.t("nav_billing"))}
                    {p.user.isAdmin ? nav("/portal/admin", p.t("nav_admin")) : null}
                  </>
                ) : (
                  <>
                    {nav("/portal/login", p.t("login"))}
                    {nav("/portal/signup", p.t("signup"))}
                  </>
                )}
                <a href={`/portal/lang/${other}?next=${encodeURIComponent(p.path)}`} lang={other} hreflang={other}>
                  {p.t("lang_other")}
                </a>
                {p.user ? (
                  <form method="post" action="/portal/logout" class="inline">
                    <input type="hidden" name="csrf" value={p.csrf} />
                    <button type="submit" class="linkish" data-testid="logout">
                      {p.t("logout")}
                    </button>
                  </form>
                ) : null}
              </nav>
            </div>
          </header>
          <main>{props.children}</main>
          <footer>
            {p.user ? <span>{p.user.email} · </span> : null}
            Wilayah API · Kepmendagri 300.2.2-2138/2025
          </footer>
        </body>
      </html>
    </>
  );
}

export function NoticeBox(props: { n: Notice }) {
  const n = props.n;
  if (!n) return null;
  return (
    <div class={`notice ${n.kind}`} role={n.kind === "err" ? "alert" : "status"}>
      {n.text}
      {n.details?.length ? (
        <ul>
          {n.details.map((d) => (
            <li>{d}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

const Csrf = (props: { p: Page }) => <input type="hidden" name="csrf" value={props.p.csrf} />;

// ---------------------------------------------------------------- sign-in and sign-up

type AuthForm = { p: Page; notice: Notice; email?: string; name?: string; challengeSiteKey: string | null };

function OAuthButtons(props: { p: Page }) {
  const o = props.p.oauth;
  if (!o || (!o.google && !o.github)) return null;
  return (
    <>
      <div class="oauth">
        {o.google ? (
          <a class="button secondary" href="/auth/oauth/google">
            {props.p.t("with_google")}
          </a>
        ) : null}
        {o.github ? (
          <a class="button secondary" href="/auth/oauth/github">
            {props.p.t("with_github")}
          </a>
        ) : null}
      </div>
      <div class="divider">{props.p.t("or")}</div>
    </>
  );
}

function Challenge(props: { p: Page; siteKey: string | null }) {
  if (!props.siteKey) return null;
  return (
    <>
      <p class="hint">{props.p.t("challenge_note")}</p>
      <div class="cf-turnstile" data-sitekey={props.siteKey} data-action="challenge-spin-v2"></div>
    </>
  );
}

export function LoginPage(props: AuthForm) {
  const { p } = props;
  return (
    <Layout p={p} title={p.t("login")} challenge={Boolean(props.challengeSiteKey)}>
      <div class="card narrow">
        <h1>{p.t("login_title")}</h1>
        <NoticeBox n={props.notice} />
        <OAuthButtons p={p} />
        <form method="post" action="/portal/login" class="stack">
          <Csrf p={p} />
          <div>
            <label for="email">{p.t("email")}</label>
            <input id="email" name="email" type="email" autocomplete="email" required value={props.email ?? ""} />
          </div>
          <div>
            <label for="password">{p.t("password")}</label>
            <input id="password" name="password" type="password" autocomplete="current-password" required />
          </div>
          <Challenge p={p} siteKey={props.challengeSiteKey} />
          <button type="submit" class="full">
            {p.t("login")}
          </button>
        </form>
        <p class="hint">
          {p.t("no_account")} <a href="/portal/signup">{p.t("signup")}</a>
        </p>
      </div>
    </Layout>
  );
}

export function SignupPage(props: AuthForm) {
  const { p } = props;
  return (
    <Layout p={p} title={p.t("signup")} challenge={Boolean(props.challengeSiteKey)}>
      <div class="card narrow">
        <h1>{p.t("signup_title")}</h1>
        <p class="muted">{p.t("tagline")}</p>
        <NoticeBox n={props.notice} />
        <OAuthButtons p={p} />
        <form method="post" action="/portal/signup" class="stack">
          <Csrf p={p} />
          <div>
            <label for="name">{p.t("name")}</label>
            <input id="name" name="name" type="text" autocomplete="name" required maxlength={100} value={props.name ?? ""} />
          </div>
          <div>
            <label for="email">{p.t("email")}</label>
            <input id="email" name="email" type="email" autocomplete="email" required value={props.email ?? ""} />
          </div>
          <div>
            <label for="password">{p.t("password")}</label>
            <input id="password" name="password" type="password" autocomplete="new-password" required minlength={8} maxlength={128} />
            <p class="hint">{p.t("password_hint")}</p>
          </div>
          <Challenge p={p} siteKey={props.challengeSiteKey} />
          <button type="submit" class="full">
            {p.t("signup")}
          </button>
        </form>
        <p class="hint">
          {p.t("have_account")} <a href="/portal/login">{p.t("login")}</a>
        </p>
      </div>
    </Layout>
  );
}

/** `?verified=1` / `?verify_error=...` for a visitor who is not signed in. */
export function VerifyLanding(props: { p: Page; notice: Notice }) {
  const { p } = props;
  return (
    <Layout p={p} title={p.t("brand")}>
      <div class="card narrow">
        <NoticeBox n={props.notice} />
        <p>
          <a class="button" href="/portal/login">
            {p.t("login")}
          </a>
        </p>
      </div>
    </Layout>
  );
}

export function ErrorPage(props: { p: Page; status: number; message: string }) {
  const { p } = props;
  return (
    <Layout p={p} title={p.t("error_title")}>
      <div class="card narrow">
        <h1>{p.t("error_title")}</h1>
        <NoticeBox n={{ kind: "err", text: props.message }} />
        <p>
          <a href="/portal">{p.t("home")}</a>
        </p>
      </div>
    </Layout>
  );
}

// ---------------------------------------------------------------- keys

export type KeyView = { id: string; name: string; prefix: string; last4: string; created_at: string; last_used_at: string | null; revoked_at: string | null };

export function VerifyFirst(props: { p: Page; email: string }) {
  const { p } = props;
  return (
    <div class="notice warn" data-testid="verify-first">
      <strong>{p.t("verify_first_title")}</strong>
      <p>{p.t("verify_first_body", { email: props.email })}</p>
      <form method="post" action="/portal/verify/resend">
        <Csrf p={p} />
        <button type="submit" class="secondary small">
          {p.t("resend")}
        </button>
      </form>
    </div>
  );
}

export function KeysPage(props: { p: Page; notice: Notice; keys: KeyView[]; created?: { id: string; key: string; name: string }; origin: string }) {
  const { p } = props;
  const verified = p.user!.emailVerified;
  return (
    <Layout p={p} title={p.t("keys_title")}>
      <h1>{p.t("keys_title")}</h1>
      <NoticeBox n={props.notice} />
      {verified ? null : <VerifyFirst p={p} email={p.user!.email} />}
      {props.created ? (
        <div class="card" data-testid="new-key">
          <h2>{p.t("key_created_title")}</h2>
          <div class="notice warn">{p.t("key_created_warning")}</div>
          <div class="secret">
            <code id="new-key-secret">{props.created.key}</code>
            <button type="button" class="secondary" data-copy="new-key-secret" data-copied={p.t("copied")}>
              {p.t("copy")}
            </button>
          </div>
          <p class="hint">{p.t("try_it")}:</p>
          <pre class="try">{`curl -H "x-api-key: ${props.created.key}" \\\n  "${props.origin}/api/v1/wilayah/search?q=bandung"`}</pre>
        </div>
      ) : null}
      <div class="card">
        <p class="muted">{p.t("keys_intro")}</p>
        <form method="post" action="/portal/keys" class="row">
          <Csrf p={p} />
          <div>
            <label for="key-name">{p.t("key_name")}</label>
            <input id="key-name" name="name" type="text" required maxlength={64} placeholder="my app" disabled={!verified} />
          </div>
          <button type="submit" disabled={!verified}>
            {p.t("key_create")}
          </button>
        </form>
      </div>
      <div class="card">
        {props.keys.length === 0 ? (
          <p class="muted">{p.t("no_keys")}</p>
        ) : (
          <table class="responsive">
            <thead>
              <tr>
                <th>{p.t("key_name")}</th>
                <th>{p.t("key_prefix")}</th>
                <th>{p.t("created")}</th>
                <th>{p.t("last_used")}</th>
                <th>{p.t("status")}</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {props.keys.map((k) => (
                <tr data-key-id={k.id}>
                  <td data-label={p.t("key_name")}>{k.name}</td>
                  <td data-label={p.t("key_prefix")}>
                    <code>{`${k.prefix}…${k.last4}`}</code>
                  </td>
                  <td data-label={p.t("created")}>{formatDate(p.lang, k.created_at)}</td>
                  <td data-label={p.t("last_used")}>{k.last_used_at ? formatDate(p.lang, k.last_used_at) : p.t("never")}</td>
                  <td data-label={p.t("status")}>
                    {k.revoked_at ? <span class="badge revoked">{p.t("revoked")}</span> : <span class="badge active">{p.t("active")}</span>}
                  </td>
                  <td>
                    {k.revoked_at ? null : (
                      <form method="post" action={`/portal/keys/${encodeURIComponent(k.id)}/revoke`} data-confirm={p.t("revoke_confirm")}>
                        <Csrf p={p} />
                        <button type="submit" class="danger small">
                          {p.t("revoke")}
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Layout>
  );
}

// ---------------------------------------------------------------- usage

export type UsageView = {
  month: string;
  total: number;
  by_key: { key_id: string; name: string | null; prefix: string | null; count: number }[];
  by_endpoint: { endpoint: string; count: number }[];
  by_day: { day: string; count: number }[];
};

/** Calls per day of the month as bars, drawn here (SVG, presentation attributes only). */
export function DayChart(props: { lang: Lang; usage: UsageView; label: string }) {
  const [y, m] = props.usage.month.split("-").map(Number);
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  const counts = new Map(props.usage.by_day.map((d) => [Number(d.day.slice(8, 10)), d.count]));
  const max = Math.max(1, ...counts.values());
  const W = 640;
  const H = 200;
  const left = 40;
  const bottom = 22;
  const top = 10;
  const plotH = H - bottom - top;
  const bw = (W - left - 6) / days;
  return (
    <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={props.label}>
      <line x1={left} y1={top + plotH} x2={W} y2={top + plotH} stroke="#b9c2cc" />
      <text x={left - 6} y={top + 8} text-anchor="end" font-size="11" fill="#5b6673">
        {formatNumber(props.lang, max)}
      </text>
      <text x={left - 6} y={top + plotH} text-anchor="end" font-size="11" fill="#5b6673">
        0
      </text>
      {Array.from({ length: days }, (_, i) => {
        const day = i + 1;
        const c = counts.get(day) ?? 0;
        const h = Math.round((c / max) * plotH);
        const x = left + 3 + i * bw;
        return (
          <g>
            <rect x={x.toFixed(1)} y={top + plotH - h} width={(bw * 0.75).toFixed(1)} height={h} fill="#0b6e4f" rx="1.5">
              <title>{`${props.usage.month}-${String(day).padStart(2, "0")}: ${formatNumber(props.lang, c)}`}</title>
            </rect>
            {day === 1 || day % 5 === 0 ? (
              <text x={(x + bw * 0.375).toFixed(1)} y={H - 6} text-anchor="middle" font-size="11" fill="#5b6673">
                {day}
              </text>
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}

export function UsagePage(props: { p: Page; usage: UsageView; months: string[] }) {
  const { p, usage } = props;
  return (
    <Layout p={p} title={p.t("usage_title")}>
      <h1>{p.t("usage_title")}</h1>
      <nav class="tabs" aria-label={p.t("usage_month")}>
        {props.months.map((m) => (
          <a href={`/portal/usage?month=${m}`} aria-current={m === usage.month ? "page" : undefined}>
            {m}
          </a>
        ))}
      </nav>
      <div class="grid">
        <div class="card">
          <div class="muted">{p.t("usage_total")}</div>
          <div class="big" data-testid="usage-total">
            {formatNumber(p.lang, usage.total)}
          </div>
          <div class="muted">{usage.month}</div>
        </div>
      </div>
      <div class="card chart">
        <h2>{p.t("usage_by_day")}</h2>
        <DayChart lang={p.lang} usage={usage} label={p.t("usage_by_day")} />
      </div>
      {usage.total === 0 ? (
        <p class="muted">{p.t("usage_none")}</p>
      ) : (
        <div class="grid">
          <div class="card">
            <h2>{p.t("usage_by_key")}</h2>
            <table>
              <tbody>
                {usage.by_key.map((k) => (
                  <tr>
                    <td>
                      {k.name ?? k.key_id} <span class="muted">{k.prefix ? `${k.prefix}…` : ""}</span>
                    </td>
                    <td class="num">{formatNumber(p.lang, k.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div class="card">
            <h2>{p.t("usage_by_endpoint")}</h2>
            <table>
              <tbody>
                {usage.by_endpoint.map((e) => (
                  <tr>
                    <td>
                      <code>{e.endpoint}</code>
                    </td>
                    <td class="num">{formatNumber(p.lang, e.count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}
    </Layout>
  );
}

// ---------------------------------------------------------------- billing

export type PlanView = { id: string; name: string; price_idr: number; monthly_quota: number; rate_limit_per_minute: number | null; features: string[] };
export type InvoiceView = {
  id: string;
  kind: string;
  amount: number;
  credits: number | null;
  plan_id: string | null;
  status: string;
  qr_image: string | null;
  expires_at: string | null;
  paid_at: string | null;
  created_at: string | null;
};
type Paged = { page: number; total_pages: number };

function Pager(props: { p: Page; meta: Paged; href: (page: number) => string }) {
  const { p, meta } = props;
  if (meta.total_pages <= 1) return null;
  return (
    <div class="pager">
      {meta.page > 1 ? <a href={props.href(meta.page - 1)}>{p.t("prev")}</a> : <span></span>}
      <span class="muted">{p.t("page_of", { page: meta.page, pages: meta.total_pages })}</span>
      {meta.page < meta.total_pages ? <a href={props.href(meta.page + 1)}>{p.t("next")}</a> : <span></span>}
    </div>
  );
}

export function BillingPage(props: {
  p: Page;
  notice: Notice;
  plans: PlanView[];
  plan: string;
  subscription: { plan_name: string; period_start: string; period_end: string } | null;
  balance: number;
  ledger: { id: number; amount: number; reason: string; created_at: string }[];
  ledgerMeta: Paged;
  invoices: InvoiceView[];
}) {
  const { p } = props;
  const verified = p.user!.emailVerified;
  return (
    <Layout p={p} title={p.t("billing_title")}>
      <h1>{p.t("billing_title")}</h1>
      <NoticeBox n={props.notice} />
      {verified ? null : <VerifyFirst p={p} email={p.user!.email} />}
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
            <label for="amount">{p.t("amount")} (Rp)</label>
            <input id="amount" name="amount" type="number" min={10000} max={5000000} step={1000} value="20000" required disabled={!verified} />
          </div>
          <button type="submit" disabled={!verified}>
            {p.t("topup_button")}
          </button>
        </form>
        <p class="hint">{p.t("topup_hint")}</p>
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
            {pl.rate_limit_per_minute ? (
              <div class="muted">
                {formatNumber(p.lang, pl.rate_limit_per_minute)} {p.t("rate")}
              </div>
            ) : null}
            <ul>
              {pl.features.map((f) => (
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
        {props.invoices.length === 0 ? (
          <p class="muted">{p.t("no_invoices")}</p>
        ) : (
          <div class="table-wrap">
            <table class="responsive">
              <thead>
                <tr>
                  <th>{p.t("invoice")}</th>
                  <th class="num">{p.t("amount")}</th>
                  <th>{p.t("status")}</th>
                  <th>{p.t("created")}</th>
                </tr>
              </thead>
              <tbody>
                {props.invoices.map((inv) => (
                  <tr>
                    <td data-label={p.t("invoice")}>
                      <a href={`/portal/billing/invoices/${inv.id}`}>{inv.kind === "topup" ? `${p.t("topup_title")}` : `${p.t("subscribe")}: ${inv.plan_id}`}</a>
                    </td>
                    <td data-label={p.t("amount")} class="num">
                      {formatIdr(p.lang, inv.amount)}
                    </td>
                    <td data-label={p.t("status")}>
                      <span class={`badge ${inv.status}`}>{p.t(`inv_${inv.status}` as "inv_PAID")}</span>
                    </td>
                    <td data-label={p.t("created")}>{formatDate(p.lang, inv.created_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
      <div class="card">
        <h2>{p.t("ledger")}</h2>
        {props.ledger.length === 0 ? (
          <p class="muted">—</p>
        ) : (
          <div class="table-wrap">
            <table class="responsive">
              <thead>
                <tr>
                  <th>{p.t("when")}</th>
                  <th>{p.t("reason")}</th>
                  <th class="num">{p.t("amount")}</th>
                </tr>
              </thead>
              <tbody>
                {props.ledger.map((e) => (
                  <tr>
                    <td data-label={p.t("when")}>{formatDate(p.lang, e.created_at)}</td>
                    <td data-label={p.t("reason")}>{e.reason}</td>
                    <td data-label={p.t("amount")} class="num">
                      {e.amount > 0 ? "+" : ""}
                      {formatNumber(p.lang, e.amount)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager p={p} meta={props.ledgerMeta} href={(n) => `/portal/billing?ledger_page=${n}`} />
      </div>
    </Layout>
  );
}

export function InvoicePage(props: { p: Page; invoice: InvoiceView; balance: number }) {
  const { p, invoice: inv } = props;
  const labels = JSON.stringify({ expires_in: p.t("expires_in"), inv_UNPAID: p.t("inv_UNPAID"), inv_PAID: p.t("inv_PAID"), inv_EXPIRED: p.t("inv_EXPIRED"), inv_FAILED: p.t("inv_FAILED") });
  return (
    <Layout p={p} title={p.t("pay_title")}>
      <h1>{p.t("pay_title")}</h1>
      <div class="card" data-invoice-url={`/portal/billing/invoices/${inv.id}/status`} data-expires={inv.expires_at ?? ""} data-status={inv.status} data-labels={labels}>
        <div class={inv.status === "UNPAID" ? "pay" : "pay closed"}>
          {inv.qr_image && inv.status === "UNPAID" ? (
            <div id="invoice-qr">
              <img src={inv.qr_image} alt="QRIS" width={320} height={320} />
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
                  {p.t("pay_before")}: {formatDate(p.lang, inv.expires_at)} WIB
                </p>
              </>
            ) : inv.paid_at ? (
              <p class="muted">
                {p.t("inv_PAID")}: {formatDate(p.lang, inv.paid_at)} WIB
              </p>
            ) : null}
            <div id="invoice-paid" class="notice ok" hidden={inv.status !== "PAID"}>
              {p.t("paid_thanks")} {p.t("new_balance")}:{" "}
              <strong id="invoice-balance" data-testid="invoice-balance">
                {formatNumber(p.lang, props.balance)}
              </strong>
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

// ---------------------------------------------------------------- admin

export type AdminUserView = { id: string; email: string; name: string; plan: string; status: string; email_verified: boolean; is_admin: boolean; created_at: string };

export function AdminPage(props: { p: Page; stats: { users: number; active_keys: number; calls_this_month: number; month: string }; users: AdminUserView[]; meta: Paged; q: string }) {
  const { p, stats } = props;
  return (
    <Layout p={p} title={p.t("admin_title")}>
      <h1>{p.t("admin_title")}</h1>
      <div class="grid">
        <div class="card">
          <div class="muted">{p.t("users")}</div>
          <div class="big">{formatNumber(p.lang, stats.users)}</div>
        </div>
        <div class="card">
          <div class="muted">{p.t("active_keys")}</div>
          <div class="big">{formatNumber(p.lang, stats.active_keys)}</div>
        </div>
        <div class="card">
          <div class="muted">
            {p.t("calls_this_month")} ({stats.month})
          </div>
          <div class="big">{formatNumber(p.lang, stats.calls_this_month)}</div>
        </div>
      </div>
      <div class="card">
        <h2>{p.t("users")}</h2>
        <form method="get" action="/portal/admin" class="row">
          <div>
            <label for="q">{p.t("search_users")}</label>
            <input id="q" name="q" type="search" value={props.q} maxlength={100} />
          </div>
          <button type="submit">{p.t("search")}</button>
        </form>
        <div class="table-wrap">
          <table class="responsive">
            <thead>
              <tr>
                <th>{p.t("email")}</th>
                <th>{p.t("name")}</th>
                <th>{p.t("plan")}</th>
                <th>{p.t("status")}</th>
                <th>{p.t("verified")}</th>
              </tr>
            </thead>
            <tbody>
              {props.users.map((u) => (
                <tr>
                  <td data-label={p.t("email")}>
                    <a href={`/portal/admin/users/${u.id}`}>{u.email}</a>
                  </td>
                  <td data-label={p.t("name")}>{u.name}</td>
                  <td data-label={p.t("plan")}>{u.plan}</td>
                  <td data-label={p.t("status")}>
                    <span class={`badge ${u.status}`}>{u.status}</span>
                  </td>
                  <td data-label={p.t("verified")}>{u.email_verified ? p.t("yes") : p.t("no")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <Pager p={p} meta={props.meta} href={(n) => `/portal/admin?page=${n}${props.q ? `&q=${encodeURIComponent(props.q)}` : ""}`} />
      </div>
    </Layout>
  );
}

export function AdminUserPage(props: { p: Page; notice: Notice; user: AdminUserView & { keys: KeyView[]; usage: UsageView }; plans: PlanView[]; balance: number }) {
  const { p, user: u } = props;
  const suspended = u.status === "suspended";
  return (
    <Layout p={p} title={u.email}>
      <a class="back" href="/portal/admin">
        ← {p.t("users")}
      </a>
      <h1>{u.email}</h1>
      <NoticeBox n={props.notice} />
      <div class="grid">
        <div class="card">
          <div>
            {p.t("name")}: {u.name}
          </div>
          <div>
            {p.t("plan")}: {u.plan}
          </div>
          <div>
            {p.t("status")}: <span class={`badge ${u.status}`} data-testid="user-status">{u.status}</span>
          </div>
          <div>
            {p.t("verified")}: {u.email_verified ? p.t("yes") : p.t("no")}
          </div>
          <div>
            {p.t("credits_balance")}: {formatNumber(p.lang, props.balance)}
          </div>
          <div>
            {p.t("calls_this_month")}: {formatNumber(p.lang, u.usage.total)}
          </div>
          <form class="mt" method="post" action={`/portal/admin/users/${u.id}/status`} data-confirm={suspended ? undefined : p.t("suspend_confirm")}>
            <Csrf p={p} />
            <input type="hidden" name="status" value={suspended ? "active" : "suspended"} />
            <button type="submit" class={suspended ? "" : "danger"}>
              {suspended ? p.t("reactivate") : p.t("suspend")}
            </button>
          </form>
        </div>
        <div class="card">
          <h2>{p.t("grant_credits")}</h2>
          <form method="post" action={`/portal/admin/users/${u.id}/credits`} class="stack">
            <Csrf p={p} />
            <div>
              <label for="credit-amount">{p.t("amount")}</label>
              <input id="credit-amount" name="amount" type="number" required step={1} />
            </div>
            <div>
              <label for="credit-reason">{p.t("grant_reason")}</label>
              <input id="credit-reason" name="reason" type="text" required minlength={3} maxlength={200} />
            </div>
            <button type="submit">{p.t("grant")}</button>
          </form>
        </div>
        <div class="card">
          <h2>{p.t("grant_subscription")}</h2>
          <form method="post" action={`/portal/admin/users/${u.id}/subscription`} class="stack">
            <Csrf p={p} />
            <div>
              <label for="sub-plan">{p.t("plan")}</label>
              <select id="sub-plan" name="plan_id">
                {props.plans
                  .filter((pl) => pl.price_idr > 0)
                  .map((pl) => (
                    <option value={pl.id}>{pl.name}</option>
                  ))}
              </select>
            </div>
            <div>
              <label for="sub-months">{p.t("months")}</label>
              <input id="sub-months" name="months" type="number" min={1} max={36} value="1" required />
            </div>
            <button type="submit">{p.t("grant")}</button>
          </form>
        </div>
      </div>
      <div class="card">
        <h2>{p.t("keys_of_user")}</h2>
        <table class="responsive">
          <tbody>
            {u.keys.map((k) => (
              <tr>
                <td data-label={p.t("key_name")}>{k.name}</td>
                <td data-label={p.t("key_prefix")}>
                  <code>{`${k.prefix}…${k.last4}`}</code>
                </td>
                <td data-label={p.t("status")}>{k.revoked_at ? p.t("revoked") : p.t("active")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Layout>
  );
}
