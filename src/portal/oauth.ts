/**
 * Google and GitHub sign-in for the portal, mounted at /auth/oauth: `/:provider` starts, and
 * `/:provider/callback` finishes (the URLs to register at the providers). The flow (state, PKCE,
 * verified email) is src/auth/oauth.ts; here are the cookies: the pending authorization in a signed,
 * HttpOnly, 10-minute cookie on /auth/oauth (cleared by every callback), then the same session
 * cookie as a password login.
 */
import { type Context, Hono } from "hono";
import { deleteCookie, getSignedCookie, setSignedCookie } from "hono/cookie";
import { accountHooks } from "../admin/lifecycle";
import {
  finishAuthorization,
  OAuthFailure,
  PENDING_TTL_SECONDS,
  type PendingAuthorization,
  PROVIDERS,
  type Provider,
  startAuthorization,
  useStateOnce,
} from "../auth/oauth";
import { signInWithVerifiedEmail } from "../auth/service";
import { purposeKey } from "../auth/tokens";
import { publicRoute } from "../gate";
import { type BaseEnv, requestMeta } from "../http/context";
import { doc } from "../http/docs";
import { ApiError } from "../lib/errors";
import { cookieOptions, securityHeaders, setSession } from "./session";

export const oauthRoutes = new Hono<BaseEnv>();
oauthRoutes.use("*", securityHeaders);

const PENDING_COOKIE = "wl_oauth";
const COOKIE_PATH = "/auth/oauth";

/** The pending cookie's signing key: derived from the session secret for this purpose only. */
const cookieSecret = (env: Env) => purposeKey(env, "wilayah-api oauth-pending v1");

function provider(c: Context<BaseEnv>): Provider {
  const p = c.req.param("provider") as Provider;
  if (!PROVIDERS.includes(p)) throw new ApiError("NOT_FOUND", `No sign-in provider "${String(p).slice(0, 20)}".`);
  return p;
}

const redirectUri = (c: Context<BaseEnv>, p: Provider) => `${new URL(c.req.url).origin}/auth/oauth/${p}/callback`;
const failed = (c: Context<BaseEnv>, reason: string) => c.redirect(`/portal/login?oauth_error=${reason}`, 303);

const providerParam = [{ in: "path", name: "provider", required: true, schema: { type: "string", enum: ["google", "github"] } }];

oauthRoutes.get(
  "/:provider",
  doc({
    operationId: "startOAuth",
    tags: ["Auth"],
    summary: "Start signing in with Google or GitHub",
    description: "For browsers: redirects to the provider (authorization code flow with state and PKCE). 404 when that provider is not configured here.",
    caller: "none",
    parameters: providerParam,
    ok: { status: 302, description: "Redirect to the provider's consent page", headers: { location: { schema: { type: "string" } } } },
    errors: ["NOT_FOUND"],
  }),
  publicRoute,
  async (c) => {
    const p = provider(c);
    const started = await startAuthorization(c.env, p, redirectUri(c, p));
    if (!started) throw new ApiError("NOT_FOUND", `Sign-in with ${p} is not configured here.`);
    await setSignedCookie(c, PENDING_COOKIE, JSON.stringify(started.pending), await cookieSecret(c.env), cookieOptions(c, PENDING_TTL_SECONDS, COOKIE_PATH));
    return c.redirect(started.url, 302);
  },
);

oauthRoutes.get(
  "/:provider/callback",
  doc({
    operationId: "finishOAuth",
    tags: ["Auth"],
    summary: "Finish signing in with Google or GitHub",
    description:
      "The provider sends the browser here. A provider-verified email signs in the account that has it (or creates one, verified); the session is set as a cookie and the browser goes to the portal. Failures (wrong state, declined consent, unverified email) go to the portal's login page with `oauth_error`.",
    caller: "none",
    parameters: [...providerParam, { in: "query", name: "code", schema: { type: "string" } }, { in: "query", name: "state", schema: { type: "string" } }],
    ok: {
      status: 303,
      description: "Redirect to the portal (signed in), or to its login page with `oauth_error`",
      headers: { location: { schema: { type: "string" } } },
    },
    errors: ["NOT_FOUND"],
  }),
  publicRoute,
  async (c) => {
    const p = provider(c);
    const raw = await getSignedCookie(c, await cookieSecret(c.env), PENDING_COOKIE);
    // Whatever happens next, this attempt is over: no loop back to the provider, no second use.
    deleteCookie(c, PENDING_COOKIE, { path: COOKIE_PATH, secure: true });
    let pending: PendingAuthorization | null = null;
    try {
      pending = raw ? (JSON.parse(raw) as PendingAuthorization) : null;
    } catch {
      pending = null;
    }
    const url = new URL(c.req.url);
    if (url.searchParams.get("error") === "access_denied") return failed(c, "access_denied");
    if (!pending || pending.provider !== p || pending.exp < Date.now()) return failed(c, "state");
    if (url.searchParams.get("state") !== pending.state || !(await useStateOnce(c.env, pending.state))) return failed(c, "state");
    try {
      const identity = await finishAuthorization(c.env, pending, url, redirectUri(c, p));
      const { token, claimed } = await signInWithVerifiedEmail(c.env, identity, requestMeta(c), accountHooks);
      setSession(c, token);
      // A pre-registered account was taken over: say so (earlier sessions ended, keys revoked, password gone).
      return c.redirect(claimed ? "/portal/keys?msg=account_claimed" : "/portal/keys", 303);
    } catch (e) {
      if (e instanceof OAuthFailure) return failed(c, e.reason);
      if (e instanceof ApiError && e.code === "ACCOUNT_SUSPENDED") return failed(c, "suspended");
      throw e;
    }
  },
);
