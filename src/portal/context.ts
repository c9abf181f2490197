/**
 * What every portal page handler shares: the portal's request variables, the reader's language,
 * the page frame's data, form parsing with the API's own rules, notices, and the signed-in check.
 */

import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { RequestIdVariables } from "hono/request-id";
import type { z } from "zod";
import type { UserVariables } from "../auth/guards";
import { usesConsoleMailer } from "../auth/mailer";
import { publicConfig } from "../auth/service";
import type { UserRow } from "../db/schema";
import { declaring, gate } from "../gate";
import { requestMeta } from "../http/context";
import { ApiError, issuesToDetails } from "../lib/errors";
import { errorText, type Lang, pickLang, translator } from "./i18n";
import type { Notice, Page } from "./layout";
import { csrfToken, LANG_COOKIE } from "./session";

/** `portalUser`: the session cookie's user, or null (set for every portal request). */
export type PortalVariables = RequestIdVariables & { portalUser: UserRow | null };
export type PortalEnv = { Bindings: Env; Variables: PortalVariables };
/**
 * A page handler's context: any portal env (with `user` once `signedIn` ran). The helpers below are
 * generic over it, since a context that carries more variables is not a `Context<PortalEnv>`.
 */
export type PortalContext<E extends PortalEnv = PortalEnv> = Context<E>;
export type SignedInEnv = { Bindings: Env; Variables: PortalVariables & UserVariables };

export function lang<E extends PortalEnv>(c: PortalContext<E>): Lang {
  return pickLang(getCookie(c, LANG_COOKIE), c.req.header("accept-language"));
}

/** The page frame's data: language, copy, CSRF token, who is signed in, which sign-in buttons show. */
export function page<E extends PortalEnv>(c: PortalContext<E>): Page {
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
    consoleMailer: usesConsoleMailer(c.env),
  };
}

/** An ApiError as a notice in the reader's language (validation details listed). */
export function errorNotice<E extends PortalEnv>(c: PortalContext<E>, e: unknown): Notice {
  if (!(e instanceof ApiError)) throw e;
  return { kind: "err", text: errorText(lang(c), e.code, e.message), details: e.extra.details?.map((d) => `${d.path}: ${d.message}`) };
}

/** A form field that the API takes as a JSON integer: plain decimal text becomes a number, so the API's own rule judges it. */
export const formInteger = (v: unknown) => (typeof v === "string" && /^-?\d{1,15}$/.test(v.trim()) ? Number(v.trim()) : v);

/** Parsed form fields as zod sees them; a failure is the API's VALIDATION_ERROR with details. */
export async function form<T extends z.ZodType, E extends PortalEnv>(c: PortalContext<E>, schema: T): Promise<z.infer<T>> {
  const body = await c.req.parseBody();
  const r = schema.safeParse(body);
  if (!r.success) {
    const details = issuesToDetails(r.error.issues);
    throw new ApiError("VALIDATION_ERROR", `Invalid form: ${details.map((d) => `${d.path}: ${d.message}`).join("; ")}`, { details });
  }
  return r.data;
}

/** Where a request comes from, as the auth service wants it (throttles, the challenge, the audit trail, links in emails and their language). */
export const origin = <E extends PortalEnv>(c: PortalContext<E>) => ({ ...requestMeta(c), apiBaseUrl: new URL(c.req.url).origin, lang: lang(c) });

/** A short message key carried across a redirect (never free text: nothing a link can inject). */
const FLASH = {
  logged_out: "ok",
  logged_out_everywhere: "ok",
  resent: "ok",
  key_revoked: "ok",
  saved: "ok",
  password_reset: "ok",
  password_changed: "ok",
  account_claimed: "warn",
  webhook_deleted: "ok",
  webhook_test_sent: "ok",
  webhook_redelivered: "ok",
  report_filed: "ok",
  report_decided: "ok",
  alerts_saved: "ok",
  details_saved: "ok",
} as const;
export function flash<E extends PortalEnv>(c: PortalContext<E>): Notice {
  const f = c.req.query("msg");
  if (f && Object.hasOwn(FLASH, f)) return { kind: FLASH[f as keyof typeof FLASH], text: translator(lang(c))(f as keyof typeof FLASH) };
  return null;
}

/**
 * A page for signed-in users: declares the portal's session cookie as the route's caller (the gate,
 * src/gate, reads it and sends a browser without one to the login page), and hands the user on as
 * `user` (the variable the API's bearer routes get).
 */
export const signedIn = declaring(
  createMiddleware<SignedInEnv>(async (c, next) => {
    const u = c.get("portalUser");
    if (!u) return c.redirect("/portal/login", 303);
    c.set("user", u);
    await next();
  }),
  { callers: ["portalSession"] },
);

/** A page for administrators (after `signedIn`): the gate refuses anyone else (403). */
export const adminOnly = gate<SignedInEnv>({ admin: true });

/** A page for anyone (login, sign-up, the language toggle), which knows the signed-in user when there is one (`portalUser`). */
export const visitor = gate<PortalEnv>({ callers: ["portalVisitor"] });
