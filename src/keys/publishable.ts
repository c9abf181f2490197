/**
 * Publishable keys (`wk_pub_...`): keys meant to sit in a web page, where everyone can read them.
 * What keeps one from being abused is here, in one place: the origins it answers (exact, or one
 * wildcard label: `https://*.example.com`), the one list of what it may call, and its own
 * per-minute rate. Knows nothing of HTTP: the guard (src/data/guard.ts) hands it the request's origin.
 */
import { getPublicSuffix } from "tldts";
import { ApiError } from "../lib/errors";

/**
 * What a publishable key may call, by the tag its routes declare (a data endpoint's `tag`, default
 * "Regions"; the tiles and the map declare theirs when they take a key). Everything else refuses it
 * with 403 SECRET_KEY_REQUIRED: "Exports" (bulk files), "Bulk jobs", "MCP" (its account tools as
 * much as its data tools). Account, billing, webhook and admin routes take a session token, never a key.
 */
export const PUBLISHABLE_TAGS: ReadonlySet<string> = new Set(["Regions", "Addresses", "Weather", "Tiles", "Map"]);

/**
 * The per-minute rates a publishable key may have, each a rate-limit binding (wrangler.toml
 * RL_KEY_*): the Workers binding's limit is fixed per binding, so a key picks a tier no higher than
 * its plan's rate. Approximate and per Cloudflare location, like the plans' rates.
 */
export const KEY_RATE_TIERS = [10, 30, 60, 120, 300, 600] as const;
export type KeyRateTier = (typeof KEY_RATE_TIERS)[number];
export const DEFAULT_KEY_RATE: KeyRateTier = 30;

export function keyRateLimiter(env: Env, perMinute: number): RateLimit {
  const limiters: Record<KeyRateTier, RateLimit> = {
    10: env.RL_KEY_10,
    30: env.RL_KEY_30,
    60: env.RL_KEY_60,
    120: env.RL_KEY_120,
    300: env.RL_KEY_300,
    600: env.RL_KEY_600,
  };
  // A stored rate is always a tier; anything else takes the smallest, never none.
  return limiters[perMinute as KeyRateTier] ?? env.RL_KEY_10;
}

export const MAX_ORIGINS = 20;

/** scheme://host[:port], lower case; the host may start with one `*.` label. */
const ORIGIN_PATTERN = /^(https?):\/\/(\*\.)?([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*)(?::(\d{1,5}))?$/;

/**
 * Why `origin` cannot be an allowed origin, or null when it can. Strict: the exact form a browser
 * sends in `Origin` (scheme and host in lower case, a port only when not the scheme's default, no
 * path, no trailing slash), so what is stored is what is compared.
 */
export function originProblem(origin: string): string | null {
  if (origin !== origin.trim() || origin.length > 260) return "write it as scheme://host[:port], with no spaces";
  if (origin !== origin.toLowerCase()) return "write it in lower case, as browsers send it";
  const m = ORIGIN_PATTERN.exec(origin);
  if (!m) {
    if (/^https?:\/\/[^/]+\/./.test(origin) || origin.endsWith("/")) return "an origin has no path and no trailing slash: scheme://host[:port]";
    if (!/^https?:\/\//.test(origin)) return "start it with https:// (or http://)";
    return "expected scheme://host[:port], or scheme://*.domain for every subdomain";
  }
  const [, scheme, wildcard, host, port] = m;
  if (port !== undefined) {
    const n = Number(port);
    if (n < 1 || n > 65535 || String(n) !== port) return "the port must be 1 to 65535, without leading zeros";
    if ((scheme === "https" && n === 443) || (scheme === "http" && n === 80)) return `leave out the default port (${scheme}://${wildcard ?? ""}${host})`;
  }
  if (wildcard && !host.includes(".")) return "a wildcard needs a domain of at least two labels (https://*.example.com)";
  // `*.co.uk` or `*.github.io` would let in every site under a public suffix (anyone can register
  // one there): the Public Suffix List (tldts, private domains included) decides, not a hand list.
  if (wildcard && getPublicSuffix(host, { allowPrivateDomains: true }) === host)
    return `${host} is a public suffix (anyone can have a site under it): a wildcard must name your own domain (https://*.yours.${host})`;
  return null;
}

/** Whether `origin` (as the request sent it) is one of `allowed`: equal, or a subdomain (any depth) of a wildcard's domain, same scheme and port. */
export function originAllowed(allowed: readonly string[], origin: string): boolean {
  for (const a of allowed) {
    if (a === origin) return true;
    const star = a.indexOf("://*.");
    if (star < 0) continue;
    const scheme = a.slice(0, star + 3); // "https://"
    const rest = a.slice(star + 4); // ".example.com[:port]"
    if (origin.startsWith(scheme) && origin.endsWith(rest) && origin.length > scheme.length + rest.length) {
      const label = origin.slice(scheme.length, origin.length - rest.length);
      if (/^[a-z0-9.-]+$/.test(label) && !label.startsWith(".") && !label.endsWith(".")) return true;
    }
  }
  return false;
}

/**
 * The origin a request comes from: its `Origin` header, else its `Referer`'s origin (browsers send
 * a Referer without an Origin on some same-origin GETs and on plain navigations). `null` as the
 * Origin (sandboxed frames, file: pages) is no origin a key can allow.
 */
export function requestOrigin(originHeader: string | undefined, referer: string | undefined): string | undefined {
  if (originHeader !== undefined && originHeader !== "") return originHeader === "null" ? undefined : originHeader.toLowerCase();
  if (!referer) return undefined;
  try {
    const u = new URL(referer);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** What a publishable key's principal carries for these checks. */
type PublishableGrant = { allowedOrigins: readonly string[] };

/**
 * A publishable key's call: from one of its origins (403 ORIGIN_NOT_ALLOWED), to a route it may call
 * (403 SECRET_KEY_REQUIRED). The origin is checked first: a page elsewhere learns nothing more.
 */
export function admitPublishable(grant: PublishableGrant, origin: string | undefined, tag: string): void {
  if (origin === undefined)
    throw new ApiError(
      "ORIGIN_NOT_ALLOWED",
      "A publishable key (wk_pub_) works only from the web pages of its allowed origins, and this request has no Origin or Referer. From a server, use a secret key (wk_live_).",
    );
  if (!originAllowed(grant.allowedOrigins, origin))
    throw new ApiError(
      "ORIGIN_NOT_ALLOWED",
      `This publishable key does not allow the origin ${origin.slice(0, 200)}. Add it to the key's allowed origins (create a new key), or call from one of them.`,
    );
  if (!PUBLISHABLE_TAGS.has(tag))
    throw new ApiError(
      "SECRET_KEY_REQUIRED",
      `A publishable key (wk_pub_) may call the read-only data endpoints, the tiles and the map; ${tag} needs a secret key (wk_live_), which belongs on a server.`,
    );
}
