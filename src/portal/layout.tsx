/** @jsxImportSource hono/jsx */
/**
 * The frame of every portal page and the pieces pages share. Pages are plain functions of already
 * fetched data (the handlers call the services). No inline script or style: behaviour comes from
 * /portal/assets/app.js, looks from app.css.
 */

import { raw } from "hono/html";
import type { Child } from "hono/jsx";
import type { Lang, T } from "./i18n";

export type Page = {
  lang: Lang;
  t: T;
  csrf: string;
  path: string;
  user: { name: string; email: string; isAdmin: boolean; emailVerified: boolean } | null;
  oauth?: { google: boolean; github: boolean };
  /** Mail goes to the server's terminal (local development without a mail provider: src/auth/mailer.ts). */
  consoleMailer?: boolean;
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
                    {nav("/portal/requests", p.t("nav_requests"))}
                    {nav("/portal/webhooks", p.t("nav_webhooks"))}
                    {nav("/portal/addresses", p.t("nav_addresses"))}
                    {nav("/portal/jobs", p.t("nav_jobs"))}
                    {nav("/portal/reports", p.t("nav_reports"))}
                    {nav("/map", p.t("nav_map"))}
                    {nav("/portal/billing", p.t("nav_billing"))}
                    {nav("/portal/security", p.t("nav_security"))}
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

export const Csrf = (props: { p: Page }) => <input type="hidden" name="csrf" value={props.p.csrf} />;

type Paged = { page: number; total_pages: number };

export function Pager(props: { p: Page; meta: Paged; href: (page: number) => string }) {
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

/** Keys and payments need a verified email: said on the pages that offer them, with a resend button. */
export function VerifyFirst(props: { p: Page; email: string }) {
  const { p } = props;
  return (
    <div class="notice warn" data-testid="verify-first">
      <strong>{p.t("verify_first_title")}</strong>
      <p>{p.t("verify_first_body", { email: props.email })}</p>
      {p.consoleMailer ? (
        <p data-testid="console-mailer">
          <strong>{p.t("verify_console_title")}</strong> {p.t("verify_console_body")}
        </p>
      ) : null}
      <form method="post" action="/portal/verify/resend">
        <Csrf p={p} />
        <button type="submit" class="secondary small">
          {p.t("resend")}
        </button>
      </form>
    </div>
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
