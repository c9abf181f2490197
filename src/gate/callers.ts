/**
 * Who is calling: each credential the gate knows, read and checked here and nowhere else. The
 * order is fixed (an API key, then a bearer session, then the portal's cookie, then the site map's
 * token, then Tripay's signature), and a route's policy says which of them it takes: a credential a
 * route does not take is never looked at (a session route ignores `x-api-key`).
 */
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { bearerToken } from "../auth/guards";
import { userFromSession } from "../auth/service";
import { SESSION_COOKIE } from "../auth/tokens";
import { verifyTripaySignature } from "../billing/service";
import type { UserRow } from "../db/schema";
import { admitPublishable, originAllowed, PUBLISHABLE_TAGS, requestOrigin } from "../keys/publishable";
import type { Principal } from "../keys/service";
import { resolveApiKey } from "../keys/service";
import { timingSafeEqual } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { mapTokenValid } from "./map-token";
import type { CallerKind, GatePolicy } from "./policy";

/** The caller the gate let in, as handlers and the rest of the gate see it. */
export type Caller =
  | { kind: "anyone" }
  | { kind: "secretKey" | "publishableKey"; principal: Principal }
  | { kind: "session" | "admin"; user: UserRow }
  | { kind: "portalSession" | "portalVisitor"; user: UserRow | null }
  | { kind: "siteMap" }
  | { kind: "tripay" };

/** The pseudo key id a portal session's metered work is counted under (usage shows it as "Portal"). */
export const PORTAL_KEY_ID = "portal";

/** The account a caller acts for, as admission counts it (a portal session as the key `portal`), or null for none. */
export function accountOf(caller: Caller): Principal | null {
  if (caller.kind === "secretKey" || caller.kind === "publishableKey") return caller.principal;
  if ((caller.kind === "session" || caller.kind === "admin" || caller.kind === "portalSession" || caller.kind === "portalVisitor") && caller.user)
    return { keyId: PORTAL_KEY_ID, userId: caller.user.id, plan: caller.user.plan };
  return null;
}

const takes = (policy: GatePolicy, ...kinds: CallerKind[]) => kinds.some((k) => policy.callers.includes(k));

/** A page's key refused after it was known (its origin, its route): the refusal is its account's line in the request log (log.ts). */
const refusedKeys = new WeakMap<Error, Principal>();
export const refusedKeyOf = (refusal: unknown): Principal | undefined => (refusal instanceof Error ? refusedKeys.get(refusal) : undefined);

/** Who is calling `c`, as `policy` allows; throws the refusal (401, 403) when no credential it takes is good. */
export async function identify(c: Context, policy: GatePolicy, setCorsOrigin: (origin: string | null) => void): Promise<Caller> {
  const keyRoute = takes(policy, "secretKey", "publishableKey");
  const apiKey = apiKeyOf(c, policy, keyRoute);
  const authorization = c.req.header("authorization");
  const ip = c.req.header("cf-connecting-ip");
  const origin = requestOrigin(c.req.header("origin"), c.req.header("referer"));

  // An API key, when the route takes keys and the request sends one (or sends nothing a session
  // route would take): `x-api-key` first, as data calls send it.
  if (keyRoute && (apiKey !== undefined || !takes(policy, "session", "admin") || authorization === undefined)) {
    if (apiKey === undefined) {
      if (takes(policy, "siteMap") && c.req.header("x-map-token") !== undefined) return siteMap(c, origin, ip);
      if (takes(policy, "anyone")) return { kind: "anyone" };
      throw new ApiError(
        "MISSING_API_KEY",
        takes(policy, "session")
          ? "Send an API key (x-api-key) or a session token (Authorization: Bearer)."
          : policy.keyParam
            ? `Send your secret API key in the x-api-key header, or (GIS tools that cannot set one) as the ${policy.keyParam} query parameter. Create keys at POST /user/keys or in the portal.`
            : "Send your API key in the x-api-key header. Create keys at POST /user/keys.",
      );
    }
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    const principal = await resolveApiKey(c.env, apiKey, waitUntil, ip, origin);
    if (principal.publishable) {
      // Set before the checks, so a refusal is not readable by a page elsewhere either.
      setCorsOrigin(origin !== undefined && originAllowed(principal.publishable.allowedOrigins, origin) ? origin : null);
      const tag = policy.tag ?? "this route";
      // A route that does not take publishable keys names itself so, whatever its tag.
      try {
        admitPublishable(principal.publishable, origin, takes(policy, "publishableKey") && PUBLISHABLE_TAGS.has(tag) ? tag : `${tag} (secret keys only)`);
      } catch (refusal) {
        if (refusal instanceof Error) refusedKeys.set(refusal, principal);
        throw refusal;
      }
      return { kind: "publishableKey", principal };
    }
    if (!takes(policy, "secretKey")) throw new ApiError("FORBIDDEN", "This route does not take a secret key.");
    return { kind: "secretKey", principal };
  }

  if (takes(policy, "session", "admin")) {
    if (authorization === undefined && takes(policy, "anyone")) return { kind: "anyone" };
    const user = await userFromSession(c.env, bearerToken(authorization));
    if (policy.admin || (takes(policy, "admin") && !takes(policy, "session"))) {
      if (!user.isAdmin) throw new ApiError("FORBIDDEN", "This route is for administrators.");
      return { kind: "admin", user };
    }
    return { kind: "session", user };
  }

  if (takes(policy, "portalSession", "portalVisitor")) {
    const user = await portalUser(c);
    if (!user) {
      if (takes(policy, "portalVisitor")) return { kind: "portalVisitor", user: null };
      throw new PortalSignIn();
    }
    if (policy.admin && !user.isAdmin) throw new ApiError("FORBIDDEN", "This page is for administrators.");
    return { kind: takes(policy, "portalSession") ? "portalSession" : "portalVisitor", user };
  }

  if (takes(policy, "siteMap") && c.req.header("x-map-token") !== undefined) return siteMap(c, origin, ip);

  if (takes(policy, "tripay")) {
    // The signature is over the raw body: read it here (the gate bounded its size first); the
    // route reads the same text again (Hono keeps it).
    if (!(await verifyTripaySignature(c.env, await c.req.text(), c.req.header("x-callback-signature"))))
      throw new ApiError("INVALID_SIGNATURE", "X-Callback-Signature is missing or does not match the body.");
    return { kind: "tripay" };
  }

  if (takes(policy, "anyone")) return { kind: "anyone" };
  throw new ApiError("FORBIDDEN", "This route takes no caller this request could be.");
}

/**
 * The API key a request sends: `x-api-key`, or on a route that declares `keyParam` that query
 * parameter, which is taken out of the request's URL here, whatever the route (nothing after the
 * gate reads the query with the key in it: no handler, no link built from it, no log line). Its
 * other parameters stay byte for byte as sent. On a key route, the parameter given twice, or beside
 * a header naming another key, is refused: which key pays must never be a guess.
 */
function apiKeyOf(c: Context, policy: GatePolicy, keyRoute: boolean): string | undefined {
  const header = c.req.header("x-api-key");
  const param = policy.keyParam;
  if (!param) return header;
  const url = new URL(c.req.url);
  const values = url.searchParams.getAll(param);
  if (values.length === 0) return header;
  const nameOf = (pair: string) => {
    const name = pair.split("=", 1)[0].replaceAll("+", " ");
    try {
      return decodeURIComponent(name);
    } catch {
      return name;
    }
  };
  const kept = url.search
    .slice(1)
    .split("&")
    .filter((pair) => nameOf(pair) !== param);
  url.search = kept.length ? `?${kept.join("&")}` : "";
  c.req.raw = new Request(url, c.req.raw);
  if (!keyRoute) return header;
  if (values.length > 1) throw new ApiError("INVALID_QUERY", `${param} was given more than once: send your key once.`);
  if (header !== undefined && !timingSafeEqual(header, values[0]))
    throw new ApiError("INVALID_QUERY", `The x-api-key header and the ${param} query parameter name different keys: send your key once.`);
  return values[0];
}

/** The portal's signed-in user from its session cookie, or null (no cookie, a bad or ended session, a suspended account). */
async function portalUser(c: Context): Promise<UserRow | null> {
  const token = getCookie(c, SESSION_COOKIE);
  if (!token) return null;
  try {
    return await userFromSession(c.env, token);
  } catch {
    return null;
  }
}

async function siteMap(c: Context, origin: string | undefined, ip: string | undefined): Promise<Caller> {
  if (!(await mapTokenValid(c.env, c.req.header("x-map-token") ?? "", origin, ip)))
    throw new ApiError(
      "INVALID_API_KEY",
      "The map's token is not valid here or has expired (it lasts 10 minutes, for the page and network it was issued to): reload the page, or use an API key.",
    );
  return { kind: "siteMap" };
}

/** A portal page without a session: the portal's login page, not an error (the gate answers the redirect). */
export class PortalSignIn extends Error {
  constructor() {
    super("sign in first");
    this.name = "PortalSignIn";
  }
}
