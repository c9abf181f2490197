/** @jsxImportSource hono/jsx */
/**
 * The developer portal: a third surface beside REST and MCP, mounted at /portal. Server-rendered
 * pages (Hono JSX) and HTML forms; each route parses its form, calls the same feature service the
 * REST route calls (same rules: verification, key limits, quota, admin check), and renders or
 * redirects. The session is the API's JWT in an HttpOnly cookie (session.ts).
 */
import { type Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { getCookie, setCookie } from "hono/cookie";
import { z } from "zod";
import { adminGrantCredits, adminGrantSubscription, getUser, listUsers, overallStats, patchUser } from "../admin/service";
import { emailInput, passwordInput } from "../auth/inputs";
import { login, publicConfig, register, resendVerification } from "../auth/service";
import { billingStatus, credits, getInvoice, listInvoices, listPlans, subscribe, TOPUP, topup } from "../billing/service";
import type { UserRow } from "../db/schema";
import { createKey, listKeys, revokeKey } from "../keys/service";
import { requireAdmin } from "../http/guards";
import { ApiError, type ErrorCode, issuesToDetails } from "../lib/errors";
import type { AppEnv } from "../lib/types";
import { displayText } from "../http/validate";
import { currentMonth, monthUsage } from "../account/service";
import { CSS, JS } from "./assets";
import { errorText, formatNumber, pickLang, translator } from "./i18n";
import { checkCsrf, clearSession, cookieOptions, csrfToken, LANG_COOKIE, securityHeaders, sessionUser, setSession } from "./session";
import {
  AdminPage,
  AdminUserPage,
  BillingPage,
  ErrorPage,
  InvoicePage,
  KeysPage,
  LoginPage,
  type Notice,
  type Page,
  SignupPage,
  UsagePage,
  VerifyLanding,
} from "./views";

type C = Context<AppEnv>;

export const portalRoutes = new Hono<AppEnv>();

// ---------------------------------------------------------------- assets (no session needed)

const ASSET_CACHE = "public, max-age=300";
portalRoutes.get("/assets/app.css", (c) => c.body(CSS, 200, { "content-type": "text/css; charset=utf-8", "cache-control": ASSET_CACHE, "x-content-type-options": "nosniff" }));
portalRoutes.get("/assets/app.js", (c) => c.body(JS, 200, { "content-type": "text/javascript; charset=utf-8", "cache-control": ASSET_CACHE, "x-content-type-options": "nosniff" }));

portalRoutes.use("*", securityHeaders);
portalRoutes.use("*", checkCsrf);
portalRoutes.use("*", async (c, next) => {
  c.set("portalUser", await sessionUser(c));
  await next();
});

function lang(c: C) {
  return pickLang(getCookie(c, LANG_COOKIE), c.req.header("accept-language"));
}

function page(c: C): Page {
  const l = lang(c);
  const u = c.get("portalUser");
  const cfg = publicConfig(c.env);
  return {
    lang: l,
    t: translator(l),
    csrf: csrfToken(c),
    path: c.req.path.replace(/\/$/, "") || "/portal",
    user: u ? { name: u.name, email: u.email, isAdmin: u.isAdmin, emailVerified: u.emailVerified } : null,
    oauth: { google: cfg.google_oauth_enabled, github: cfg.github_oauth_enabled },
  };
}

/** An ApiError as a notice in the reader's language (validation details listed). */
function errorNotice(c: C, e: unknown): Notice {
  if (!(e instanceof ApiError)) throw e;
  return { kind: "err", text: errorText(lang(c), e.code, e.message), details: e.extra.details?.map((d) => `${d.path}: ${d.message}`) };
}

/** A signed-in portal user as `user` (the variable the API's bearer guard sets), else the login page. */
const signedIn = createMiddleware<AppEnv>(async (c, next) => {
  const u = c.get("portalUser");
  if (!u) return c.redirect("/portal/login", 303);
  c.set("user", u);
  await next();
});

/** Parsed form fields as zod sees them; a failure is the API's VALIDATION_ERROR with details. */
async function form<T extends z.ZodType>(c: C, schema: T): Promise<z.infer<T>> {
  const body = await c.req.parseBody();
  const r = schema.safeParse(body);
  if (!r.success) {
    const details = issuesToDetails(r.error.issues);
    throw new ApiError("VALIDATION_ERROR", `Invalid form: ${details.map((d) => `${d.path}: ${d.message}`).join("; ")}`, { details });
  }
  return r.data;
}

const origin = (c: C) => ({ ip: c.req.header("cf-connecting-ip"), apiBaseUrl: new URL(c.req.url).origin });

/** A short message key carried across a redirect (never free text: nothing a link can inject). */
const FLASH = { logged_out: "logged_out", resent: "resent", key_revoked: "key_revoked", saved: "saved" } as const;
function flash(c: C): Notice {
  const f = c.req.query("msg");
  if (f && f in FLASH) return { kind: "ok", text: translator(lang(c))(f as keyof typeof FLASH) };
  return null;
}

/** Portal pages answer errors as pages, not JSON. */
portalRoutes.onError((err, c) => {
  if (!(err instanceof ApiError)) {
    console.error(JSON.stringify({ level: "error", request_id: c.get("requestId"), path: c.req.path, error: String(err) }));
  }
  const code: ErrorCode = err instanceof ApiError ? err.code : "INTERNAL_ERROR";
  const status = err instanceof ApiError ? err.status : 500;
  let p: Page;
  try {
    p = page(c as C);
  } catch {
    p = { lang: "en", t: translator("en"), csrf: "", path: "/portal", user: null };
  }
  const message = errorText(p.lang, code, err instanceof ApiError ? err.message : "Something went wrong on our side.");
  if (c.req.header("accept")?.includes("application/json") && !c.req.header("accept")?.includes("text/html")) {
    return c.json({ error: { code, message, request_id: c.get("requestId") } }, status);
  }
  return c.html(<ErrorPage p={p} status={status} message={message} />, status);
});

// ---------------------------------------------------------------- landing, language

portalRoutes.get("/", (c) => {
  const p = page(c);
  const u = c.get("portalUser");
  const verifyError = c.req.query("verify_error");
  if (c.req.query("verified") === "1") {
    if (u) return c.redirect("/portal/keys?verified=1", 303);
    return c.html(<VerifyLanding p={p} notice={{ kind: "ok", text: p.t("verified_ok") }} />);
  }
  if (verifyError) {
    const text = p.t(verifyError === "expired" ? "verify_expired" : "verify_invalid");
    if (u) return c.redirect(`/portal/keys?verify_error=${verifyError === "expired" ? "expired" : "invalid"}`, 303);
    return c.html(<VerifyLanding p={p} notice={{ kind: "err", text: `${text} ${p.t("verify_login_to_resend")}` }} />);
  }
  return c.redirect(u ? "/portal/keys" : "/portal/login", 303);
});

portalRoutes.get("/lang/:lang{en|id}", (c) => {
  setCookie(c, LANG_COOKIE, c.req.param("lang"), { ...cookieOptions(c, 365 * 24 * 3600), httpOnly: false });
  const next = c.req.query("next") ?? "/portal";
  // Only a path of this portal: never another site.
  return c.redirect(/^\/portal(\/[A-Za-z0-9_\-/]*)?$/.test(next) ? next : "/portal", 303);
});

// ---------------------------------------------------------------- sign-in, sign-up, sign-out

const challengeKey = (c: C) => (publicConfig(c.env).challenge_required ? c.env.TURNSTILE_SITE_KEY : null);
const challengeToken = z.string().max(4096).optional();

portalRoutes.get("/login", (c) => {
  if (c.get("portalUser")) return c.redirect("/portal/keys", 303);
  const p = page(c);
  const oauthError = c.req.query("oauth_error");
  const notice: Notice = oauthError ? { kind: "err", text: oauthMessage(p.lang, oauthError) } : flash(c);
  return c.html(<LoginPage p={p} notice={notice} challengeSiteKey={challengeKey(c)} />);
});

portalRoutes.post("/login", async (c) => {
  const body = await c.req.parseBody();
  const email = typeof body.email === "string" ? body.email : "";
  try {
    const input = await form(c, z.object({ email: emailInput, password: z.string().min(1).max(128), "cf-turnstile-response": challengeToken }));
    const { token } = await login(c.env, { email: input.email, password: input.password, challengeToken: input["cf-turnstile-response"] }, origin(c));
    setSession(c, token);
    return c.redirect("/portal/keys", 303);
  } catch (e) {
    return c.html(<LoginPage p={page(c)} notice={errorNotice(c, e)} email={email} challengeSiteKey={challengeKey(c)} />, e instanceof ApiError ? e.status : 500);
  }
});

portalRoutes.get("/signup", (c) => {
  if (c.get("portalUser")) return c.redirect("/portal/keys", 303);
  return c.html(<SignupPage p={page(c)} notice={null} challengeSiteKey={challengeKey(c)} />);
});

portalRoutes.post("/signup", async (c) => {
  const body = await c.req.parseBody();
  const keep = { email: typeof body.email === "string" ? body.email : "", name: typeof body.name === "string" ? body.name : "" };
  try {
    const input = await form(c, z.object({ email: emailInput, password: passwordInput, name: displayText(1, 100), "cf-turnstile-response": challengeToken }));
    const r = await register(c.env, { email: input.email, password: input.password, name: input.name, challengeToken: input["cf-turnstile-response"] }, origin(c));
    setSession(c, r.token);
    return c.redirect("/portal/keys", 303);
  } catch (e) {
    return c.html(<SignupPage p={page(c)} notice={errorNotice(c, e)} {...keep} challengeSiteKey={challengeKey(c)} />, e instanceof ApiError ? e.status : 500);
  }
});

portalRoutes.post("/logout", (c) => {
  clearSession(c);
  return c.redirect("/portal/login?msg=logged_out", 303);
});

portalRoutes.post("/verify/resend", signedIn, async (c) => {
  const u = c.get("user");
  await resendVerification(c.env, u, origin(c));
  return c.redirect("/portal/keys?msg=resent", 303);
});

// ---------------------------------------------------------------- keys

async function keysPage(c: C, u: UserRow, notice: Notice, created?: { id: string; key: string; name: string }, status: 200 | 201 | 400 | 403 | 409 = 200) {
  const { data } = await listKeys(c.env, u.id);
  return c.html(<KeysPage p={page(c)} notice={notice} keys={data} created={created} origin={new URL(c.req.url).origin} />, status);
}

portalRoutes.get("/keys", signedIn, async (c) => {
  const u = c.get("user");
  const t = translator(lang(c));
  const ve = c.req.query("verify_error");
  const notice: Notice =
    c.req.query("verified") === "1"
      ? { kind: "ok", text: t("verified_ok") }
      : ve
        ? { kind: "err", text: t(ve === "expired" ? "verify_expired" : "verify_invalid") }
        : flash(c);
  return keysPage(c, u, notice);
});

portalRoutes.post("/keys", signedIn, async (c) => {
  const u = c.get("user");
  try {
    const { name } = await form(c, z.object({ name: displayText(1, 64) }));
    const { data } = await createKey(c.env, u, name);
    // The secret is in this response's page only: never in a URL, never stored.
    return keysPage(c, u, null, { id: data.id, key: data.key, name: data.name }, 201);
  } catch (e) {
    const n = errorNotice(c, e);
    return keysPage(c, u, n, undefined, e instanceof ApiError && (e.status === 400 || e.status === 403 || e.status === 409) ? e.status : 400);
  }
});

portalRoutes.post("/keys/:id/revoke", signedIn, async (c) => {
  const u = c.get("user");
  await revokeKey(c.env, u.id, c.req.param("id"));
  return c.redirect("/portal/keys?msg=key_revoked", 303);
});

// ---------------------------------------------------------------- usage

/** This month and the five before it. */
function recentMonths(now = new Date()): string[] {
  return Array.from({ length: 6 }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)).toISOString().slice(0, 7));
}

portalRoutes.get("/usage", signedIn, async (c) => {
  const u = c.get("user");
  const asked = c.req.query("month");
  const month = asked && /^\d{4}-(0[1-9]|1[0-2])$/.test(asked) ? asked : currentMonth();
  const months = recentMonths();
  if (!months.includes(month)) months.push(month);
  const usage = await monthUsage(c.env, u.id, month);
  return c.html(<UsagePage p={page(c)} usage={usage} months={months} />);
});

// ---------------------------------------------------------------- billing

async function billingPage(c: C, u: UserRow, notice: Notice, status: 200 | 400 | 403 | 404 | 502 | 503 | 504 = 200) {
  const ledgerPage = Number(c.req.query("ledger_page") ?? "1");
  const paging = { page: Number.isInteger(ledgerPage) && ledgerPage > 0 ? ledgerPage : 1, per_page: 20 };
  const [plans, sub, cr, invoices] = await Promise.all([
    listPlans(c.env),
    billingStatus(c.env, u.id).catch((e) => {
      if (e instanceof ApiError && e.code === "NO_SUBSCRIPTION") return null;
      throw e;
    }),
    credits(c.env, u.id, paging),
    listInvoices(c.env, u.id, { page: 1, per_page: 10 }),
  ]);
  return c.html(
    <BillingPage
      p={page(c)}
      notice={notice}
      plans={plans.data}
      plan={u.plan}
      subscription={sub ? sub.data.subscription : null}
      balance={cr.data.balance}
      ledger={cr.data.ledger}
      ledgerMeta={cr.meta}
      invoices={invoices.data}
    />,
    status,
  );
}

portalRoutes.get("/billing", signedIn, async (c) => {
  const u = c.get("user");
  return billingPage(c, u, flash(c));
});

function billingFailure(c: C, u: UserRow, e: unknown) {
  const n = errorNotice(c, e);
  const s = e instanceof ApiError ? e.status : 400;
  return billingPage(c, u, n, s === 403 || s === 404 || s === 502 || s === 503 || s === 504 ? s : 400);
}

portalRoutes.post("/billing/topup", signedIn, async (c) => {
  const u = c.get("user");
  try {
    const { amount } = await form(
      c,
      z.object({
        amount: z.coerce
          .number()
          .int("a whole number of rupiah")
          .min(TOPUP.min, `at least Rp${TOPUP.min}`)
          .max(TOPUP.max, `at most Rp${TOPUP.max}`)
          .multipleOf(TOPUP.step, `a multiple of Rp${TOPUP.step}`),
      }),
    );
    const { data } = await topup(c.env, u, amount);
    return c.redirect(`/portal/billing/invoices/${data.id}`, 303);
  } catch (e) {
    return billingFailure(c, u, e);
  }
});

portalRoutes.post("/billing/subscribe", signedIn, async (c) => {
  const u = c.get("user");
  try {
    const { plan_id } = await form(c, z.object({ plan_id: z.string().min(1).max(40) }));
    const { data } = await subscribe(c.env, u, plan_id);
    return c.redirect(`/portal/billing/invoices/${data.id}`, 303);
  } catch (e) {
    return billingFailure(c, u, e);
  }
});

portalRoutes.get("/billing/invoices/:id", signedIn, async (c) => {
  const u = c.get("user");
  const [{ data }, cr] = await Promise.all([getInvoice(c.env, u.id, c.req.param("id")), credits(c.env, u.id, { page: 1, per_page: 1 })]);
  return c.html(<InvoicePage p={page(c)} invoice={data} balance={cr.data.balance} />);
});

/** What the payment page polls: the invoice (the API's own view of it) and the balance, for the signed-in owner only. */
portalRoutes.get("/billing/invoices/:id/status", async (c) => {
  const u = c.get("portalUser");
  if (!u) throw new ApiError("UNAUTHORIZED", "Log in again.");
  const [{ data }, cr] = await Promise.all([getInvoice(c.env, u.id, c.req.param("id")), credits(c.env, u.id, { page: 1, per_page: 1 })]);
  return c.json({ invoice: data, balance: cr.data.balance, balance_text: formatNumber(lang(c), cr.data.balance) });
});

// ---------------------------------------------------------------- admin (the admin service, behind the same admin check)

portalRoutes.get("/admin", signedIn, requireAdmin, async (c) => {
  const q = (c.req.query("q") ?? "").slice(0, 100);
  const n = Number(c.req.query("page") ?? "1");
  const [stats, users] = await Promise.all([overallStats(c.env), listUsers(c.env, { q, page: Number.isInteger(n) && n > 0 ? n : 1, per_page: 20 })]);
  return c.html(<AdminPage p={page(c)} stats={stats.data} users={users.data} meta={users.meta} q={q} />);
});

async function adminUserPage(c: C, id: string, notice: Notice, status: 200 | 400 | 404 = 200) {
  const [user, plans, cr] = await Promise.all([getUser(c.env, id), listPlans(c.env), credits(c.env, id, { page: 1, per_page: 1 })]);
  return c.html(<AdminUserPage p={page(c)} notice={notice} user={user.data} plans={plans.data} balance={cr.data.balance} />, status);
}

portalRoutes.get("/admin/users/:id", signedIn, requireAdmin, async (c) => {
  return adminUserPage(c, c.req.param("id"), flash(c));
});

portalRoutes.post("/admin/users/:id/status", signedIn, requireAdmin, async (c) => {
  const id = c.req.param("id");
  const { status } = await form(c, z.object({ status: z.enum(["active", "suspended"]) }));
  await patchUser(c.env, id, { status });
  return c.redirect(`/portal/admin/users/${id}?msg=saved`, 303);
});

portalRoutes.post("/admin/users/:id/credits", signedIn, requireAdmin, async (c) => {
  const u = c.get("user");
  const id = c.req.param("id");
  try {
    const { amount, reason } = await form(
      c,
      z.object({ amount: z.coerce.number().int().refine((n) => n !== 0, "must not be 0").refine((n) => Math.abs(n) <= 100_000_000, "too large"), reason: displayText(3, 200) }),
    );
    await adminGrantCredits(c.env, id, amount, reason, u.id);
    return c.redirect(`/portal/admin/users/${id}?msg=saved`, 303);
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) return adminUserPage(c, id, errorNotice(c, e), 400);
    throw e;
  }
});

portalRoutes.post("/admin/users/:id/subscription", signedIn, requireAdmin, async (c) => {
  const id = c.req.param("id");
  try {
    const { plan_id, months } = await form(c, z.object({ plan_id: z.string().min(1).max(40), months: z.coerce.number().int().min(1).max(36) }));
    await adminGrantSubscription(c.env, id, plan_id, months);
    return c.redirect(`/portal/admin/users/${id}?msg=saved`, 303);
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) return adminUserPage(c, id, errorNotice(c, e), 400);
    throw e;
  }
});

// ---------------------------------------------------------------- OAuth messages (the flow itself: oauth.ts)

export function oauthMessage(l: "id" | "en", code: string): string {
  const en: Record<string, string> = {
    access_denied: "Sign-in was cancelled at the provider. Nothing was changed.",
    unverified_email: "The provider did not confirm that this email address is verified, so we cannot sign you in with it. Verify it at the provider, or sign up with a password.",
    state: "The sign-in attempt expired or was already used. Start again.",
    provider: "The provider answered with an error. Try again.",
    suspended: "This account is suspended. Contact support.",
  };
  const id: Record<string, string> = {
    access_denied: "Proses masuk dibatalkan di penyedia. Tidak ada yang diubah.",
    unverified_email: "Penyedia tidak mengonfirmasi bahwa alamat email ini terverifikasi, jadi kami tidak bisa memasukkan Anda dengannya. Verifikasi di penyedia, atau daftar dengan kata sandi.",
    state: "Percobaan masuk kedaluwarsa atau sudah dipakai. Mulai lagi.",
    provider: "Penyedia menjawab dengan galat. Coba lagi.",
    suspended: "Akun ini ditangguhkan. Hubungi dukungan.",
  };
  const d = l === "en" ? en : id;
  return d[code] ?? d.provider;
}
