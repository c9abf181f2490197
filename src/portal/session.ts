/**
 * The portal's cookies and request checks. The session is the API's own JWT (auth service), kept in
 * an HttpOnly cookie; state-changing requests must come from this origin (`Origin`) and carry the
 * CSRF token (double submit: a random cookie the page repeats in a hidden field).
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import type { CookieOptions } from "hono/utils/cookie";
import { userFromSession } from "../auth/service";
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from "../auth/tokens";
import type { BaseEnv } from "../http/context";
import { base64url, randomBytes, timingSafeEqual } from "../lib/crypto";
import { ApiError } from "../lib/errors";

export { SESSION_COOKIE };
/** `__Host-` like the session cookie: no subdomain can plant a CSRF token of its choosing. */
export const CSRF_COOKIE = "__Host-wl_csrf";
export const LANG_COOKIE = "wl_lang";

/**
 * Always `Secure` (the `__Host-` prefix needs it; browsers keep Secure cookies of http://localhost
 * and 127.0.0.1 too, so local development works the same).
 */
export function cookieOptions(_c: Context, maxAge: number, path = "/"): CookieOptions {
  return { httpOnly: true, secure: true, sameSite: "Lax", path, maxAge };
}

export function setSession(c: Context, token: string) {
  setCookie(c, SESSION_COOKIE, token, cookieOptions(c, SESSION_TTL_SECONDS));
}

export function clearSession(c: Context) {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: true });
}

/** The session token the browser sent, if any. */
export const sessionToken = (c: Context): string | undefined => getCookie(c, SESSION_COOKIE);

/** The CSRF token of this browser, set on first sight. */
export function csrfToken(c: Context): string {
  let token = getCookie(c, CSRF_COOKIE);
  if (!token || !/^[A-Za-z0-9_-]{20,64}$/.test(token)) {
    token = base64url(randomBytes(24));
    setCookie(c, CSRF_COOKIE, token, cookieOptions(c, SESSION_TTL_SECONDS));
  }
  return token;
}

/**
 * For every POST: the `Origin` header must be this origin, and the form's `csrf` field must equal
 * the CSRF cookie. A form post from another site fails both.
 */
export const checkCsrf = createMiddleware<BaseEnv>(async (c, next) => {
  if (c.req.method !== "POST") return next();
  const origin = c.req.header("origin");
  if (!origin || origin !== new URL(c.req.url).origin) throw new ApiError("FORBIDDEN", "This form must be sent from the portal's own pages.");
  const cookie = getCookie(c, CSRF_COOKIE);
  const contentType = c.req.header("content-type") ?? "";
  const form = contentType.startsWith("application/x-www-form-urlencoded") || contentType.startsWith("multipart/form-data") ? await c.req.parseBody() : {};
  const sent = typeof form.csrf === "string" ? form.csrf : c.req.header("x-csrf-token");
  if (!cookie || !sent || !timingSafeEqual(cookie, sent)) throw new ApiError("FORBIDDEN", "The form expired. Reload the page and try again.");
  await next();
});

/** The signed-in user from the session cookie, or null (no cookie, bad or expired token, suspended, gone). */
export async function sessionUser(c: Context) {
  const token = sessionToken(c);
  if (!token) return null;
  try {
    return await userFromSession(c.env, token);
  } catch {
    return null;
  }
}

/**
 * Security headers of every portal page: a CSP without inline scripts or styles (scripts are
 * files served by the Worker; the bot-challenge widget's origin is the one outside script source),
 * no framing, no referrer beyond the origin, no MIME sniffing. `imgBlob`: the map pages also allow
 * `blob:` images (MapLibre draws its canvas' images from blobs); its worker is a same-origin file,
 * so scripts stay 'self'.
 */
const pageSecurityHeaders = (opts: { imgBlob?: boolean } = {}) =>
  createMiddleware<BaseEnv>(async (c, next) => {
    await next();
    const challenge = "https://challenges.cloudflare.com";
    c.header(
      "content-security-policy",
      [
        "default-src 'self'",
        `script-src 'self' ${challenge}`,
        "style-src 'self'",
        `img-src 'self' data:${opts.imgBlob ? " blob:" : ""}`,
        `frame-src ${challenge}`,
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
      ].join("; "),
    );
    c.header("x-frame-options", "DENY");
    c.header("referrer-policy", "strict-origin-when-cross-origin");
    c.header("x-content-type-options", "nosniff");
    c.header("cross-origin-opener-policy", "same-origin");
    c.header("permissions-policy", "camera=(), microphone=(), geolocation=()");
    if (!c.res.headers.has("cache-control")) c.header("cache-control", "no-store");
  });

export const securityHeaders = pageSecurityHeaders();
/** The pages with a map (/map, the landing page). */
export const mapSecurityHeaders = pageSecurityHeaders({ imgBlob: true });
