/** @jsxImportSource hono/jsx */
/**
 * Portal pages for signing in and out: login, sign-up (with the bot-challenge widget when it is
 * required, and Google/GitHub buttons when configured), the email-verification landing, the language
 * toggle. Each form calls the auth service the REST routes call, with the same rules and errors.
 */
import { Hono } from "hono";
import { setCookie } from "hono/cookie";
import type { Child } from "hono/jsx";
import { z } from "zod";
import { accountHooks } from "../admin/lifecycle";
import { emailInput, loginPasswordInput, nameInput, passwordInput } from "../auth/inputs";
import { forgotPassword, login, logout, publicConfig, register, resendVerification, resetPassword } from "../auth/service";
import { ApiError } from "../lib/errors";
import { Field, NewPassword } from "./components";
import { errorNotice, flash, form, origin, type PortalContext, type PortalEnv, page, signedIn, visitor } from "./context";
import { Csrf, Layout, type Notice, NoticeBox, type Page } from "./layout";
import { clearSession, cookieOptions, LANG_COOKIE, sessionToken, setSession } from "./session";

export const authPages = new Hono<PortalEnv>();

// ---------------------------------------------------------------- landing, language

authPages.get("/", visitor, (c) => {
  const p = page(c);
  const u = c.get("portalUser");
  const verifyError = c.req.query("verify_error");
  if (c.req.query("verified") === "1") {
    if (u) return c.redirect("/portal/keys?verified=1", 303);
    return c.html(<VerifyLanding p={p} notice={{ kind: "ok", text: p.t("verified_ok") }} notYours />);
  }
  if (verifyError) {
    const text = p.t(verifyError === "expired" ? "verify_expired" : "verify_invalid");
    if (u) return c.redirect(`/portal/keys?verify_error=${verifyError === "expired" ? "expired" : "invalid"}`, 303);
    return c.html(<VerifyLanding p={p} notice={{ kind: "err", text: `${text} ${p.t("verify_login_to_resend")}` }} />);
  }
  return c.redirect(u ? "/portal/keys" : "/portal/login", 303);
});

authPages.get("/lang/:lang{en|id}", visitor, (c) => {
  setCookie(c, LANG_COOKIE, c.req.param("lang"), { ...cookieOptions(c, 365 * 24 * 3600), httpOnly: false });
  const next = c.req.query("next") ?? "/portal";
  // Only a path of this portal: never another site.
  return c.redirect(/^\/portal(\/[A-Za-z0-9_\-/]*)?$/.test(next) ? next : "/portal", 303);
});

// ---------------------------------------------------------------- sign-in, sign-up, sign-out

const challengeKey = (c: PortalContext) => (publicConfig(c.env).challenge_required ? c.env.TURNSTILE_SITE_KEY : null);
const challengeToken = z.string().max(4096).optional();

authPages.get("/login", visitor, (c) => {
  if (c.get("portalUser")) return c.redirect("/portal/keys", 303);
  const p = page(c);
  const oauthError = c.req.query("oauth_error");
  const notice: Notice = oauthError ? { kind: "err", text: oauthMessage(p.t, oauthError) } : flash(c);
  return c.html(<LoginPage p={p} notice={notice} challengeSiteKey={challengeKey(c)} />);
});

authPages.post("/login", visitor, async (c) => {
  const body = await c.req.parseBody();
  const email = typeof body.email === "string" ? body.email : "";
  try {
    const input = await form(c, z.object({ email: emailInput, password: loginPasswordInput, "cf-turnstile-response": challengeToken }));
    const { token } = await login(c.env, { email: input.email, password: input.password, challengeToken: input["cf-turnstile-response"] }, origin(c));
    setSession(c, token);
    return c.redirect("/portal/keys", 303);
  } catch (e) {
    return c.html(
      <LoginPage p={page(c)} notice={errorNotice(c, e)} email={email} challengeSiteKey={challengeKey(c)} />,
      e instanceof ApiError ? e.status : 500,
    );
  }
});

authPages.get("/signup", visitor, (c) => {
  if (c.get("portalUser")) return c.redirect("/portal/keys", 303);
  return c.html(<SignupPage p={page(c)} notice={null} challengeSiteKey={challengeKey(c)} />);
});

authPages.post("/signup", visitor, async (c) => {
  const body = await c.req.parseBody();
  const keep = { email: typeof body.email === "string" ? body.email : "", name: typeof body.name === "string" ? body.name : "" };
  try {
    const input = await form(c, z.object({ email: emailInput, password: passwordInput, name: nameInput, "cf-turnstile-response": challengeToken }));
    const r = await register(
      c.env,
      { email: input.email, password: input.password, name: input.name, challengeToken: input["cf-turnstile-response"] },
      origin(c),
      accountHooks,
    );
    setSession(c, r.token);
    return c.redirect("/portal/keys", 303);
  } catch (e) {
    return c.html(<SignupPage p={page(c)} notice={errorNotice(c, e)} {...keep} challengeSiteKey={challengeKey(c)} />, e instanceof ApiError ? e.status : 500);
  }
});

/** Ends the session on the server too (a copied token stops working), then drops the cookie. */
authPages.post("/logout", visitor, async (c) => {
  const u = c.get("portalUser");
  const token = sessionToken(c);
  if (u && token) await logout(c.env, u, token, origin(c));
  clearSession(c);
  return c.redirect("/portal/login?msg=logged_out", 303);
});

// ---------------------------------------------------------------- recovery

authPages.get("/forgot", visitor, (c) => c.html(<ForgotPage p={page(c)} notice={null} challengeSiteKey={challengeKey(c)} />));

authPages.post("/forgot", visitor, async (c) => {
  const body = await c.req.parseBody();
  const email = typeof body.email === "string" ? body.email : "";
  try {
    const input = await form(c, z.object({ email: emailInput, "cf-turnstile-response": challengeToken }));
    await forgotPassword(c.env, { email: input.email, challengeToken: input["cf-turnstile-response"] }, origin(c), (work) => c.executionCtx.waitUntil(work));
    return c.html(<ForgotPage p={page(c)} notice={{ kind: "ok", text: page(c).t("forgot_sent") }} email={email} challengeSiteKey={challengeKey(c)} />);
  } catch (e) {
    return c.html(
      <ForgotPage p={page(c)} notice={errorNotice(c, e)} email={email} challengeSiteKey={challengeKey(c)} />,
      e instanceof ApiError ? e.status : 500,
    );
  }
});

authPages.get("/reset", visitor, (c) => {
  const token = (c.req.query("token") ?? "").slice(0, 2048);
  return c.html(<ResetPage p={page(c)} notice={token ? null : { kind: "err", text: page(c).t("reset_no_token") }} token={token} />);
});

authPages.post("/reset", visitor, async (c) => {
  const body = await c.req.parseBody();
  const token = typeof body.token === "string" ? body.token.slice(0, 2048) : "";
  try {
    const input = await form(c, z.object({ token: z.string().min(1).max(2048), password: passwordInput }));
    const { takeover } = await resetPassword(c.env, input, origin(c), accountHooks);
    clearSession(c);
    return c.redirect(takeover ? "/portal/login?msg=account_claimed" : "/portal/login?msg=password_reset", 303);
  } catch (e) {
    return c.html(<ResetPage p={page(c)} notice={errorNotice(c, e)} token={token} />, e instanceof ApiError ? e.status : 500);
  }
});

authPages.post("/verify/resend", signedIn, async (c) => {
  const u = c.get("user");
  await resendVerification(c.env, u, origin(c));
  return c.redirect("/portal/keys?msg=resent", 303);
});

// ---------------------------------------------------------------- views

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

/** The auth pages' form: its fields stacked, the bot check when the deployment asks for one, one full-width button. */
function StackForm(props: { p: Page; action: string; submit: string; siteKey?: string | null; children: Child }) {
  return (
    <form method="post" action={props.action} class="stack">
      <Csrf p={props.p} />
      {props.children}
      <Challenge p={props.p} siteKey={props.siteKey ?? null} />
      <button type="submit" class="full">
        {props.submit}
      </button>
    </form>
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
        <StackForm p={p} action="/portal/login" submit={p.t("login")} siteKey={props.challengeSiteKey}>
          <Field id="email" label={p.t("email")} type="email" autocomplete="email" value={props.email ?? ""} />
          <Field id="password" label={p.t("password")} type="password" autocomplete="current-password" />
        </StackForm>
        <p class="hint">
          <a href="/portal/forgot">{p.t("forgot_link")}</a>
        </p>
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
        <StackForm p={p} action="/portal/signup" submit={p.t("signup")} siteKey={props.challengeSiteKey}>
          <Field id="name" label={p.t("name")} type="text" autocomplete="name" maxlength={100} value={props.name ?? ""} />
          <Field id="email" label={p.t("email")} type="email" autocomplete="email" value={props.email ?? ""} />
          <NewPassword id="password" hint={p.t("password_hint")} label={p.t("password")} />
        </StackForm>
        <p class="hint">
          {p.t("have_account")} <a href="/portal/login">{p.t("login")}</a>
        </p>
      </div>
    </Layout>
  );
}

/** `?verified=1` / `?verify_error=...` for a visitor who is not signed in. */
export function VerifyLanding(props: { p: Page; notice: Notice; notYours?: boolean }) {
  const { p } = props;
  return (
    <Layout p={p} title={p.t("brand")}>
      <div class="card narrow">
        <NoticeBox n={props.notice} />
        {props.notYours ? (
          <p class="hint" data-testid="not-yours">
            {p.t("verified_not_yours")} <a href="/portal/forgot">{p.t("forgot_link")}</a>
          </p>
        ) : null}
        <p>
          <a class="button" href="/portal/login">
            {p.t("login")}
          </a>
        </p>
      </div>
    </Layout>
  );
}

const OAUTH_REASONS = ["access_denied", "unverified_email", "state", "provider", "suspended"] as const;

/** Why a Google/GitHub sign-in did not happen (`?oauth_error=` from portal/oauth.ts), in words. */
function oauthMessage(t: Page["t"], code: string): string {
  const reason = (OAUTH_REASONS as readonly string[]).includes(code) ? (code as (typeof OAUTH_REASONS)[number]) : "provider";
  return t(`oauth_${reason}`);
}

export function ForgotPage(props: AuthForm) {
  const { p } = props;
  return (
    <Layout p={p} title={p.t("forgot_title")} challenge={Boolean(props.challengeSiteKey)}>
      <div class="card narrow">
        <h1>{p.t("forgot_title")}</h1>
        <p class="muted">{p.t("forgot_intro")}</p>
        <NoticeBox n={props.notice} />
        <StackForm p={p} action="/portal/forgot" submit={p.t("forgot_button")} siteKey={props.challengeSiteKey}>
          <Field id="email" label={p.t("email")} type="email" autocomplete="email" value={props.email ?? ""} />
        </StackForm>
        <p class="hint">
          <a href="/portal/login">{p.t("login")}</a>
        </p>
      </div>
    </Layout>
  );
}

export function ResetPage(props: { p: Page; notice: Notice; token: string }) {
  const { p } = props;
  return (
    <Layout p={p} title={p.t("reset_title")}>
      <div class="card narrow">
        <h1>{p.t("reset_title")}</h1>
        <p class="muted">{p.t("reset_intro")}</p>
        <NoticeBox n={props.notice} />
        <StackForm p={p} action="/portal/reset" submit={p.t("reset_button")}>
          <input type="hidden" name="token" value={props.token} />
          <NewPassword id="password" hint={p.t("password_hint")} label={p.t("new_password")} />
        </StackForm>
      </div>
    </Layout>
  );
}
