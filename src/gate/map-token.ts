/**
 * The site's own map (/map, the landing page's demo map) draws tiles without an API key, by a token
 * its page carries: signed by the Worker (HMAC-SHA256 under a key of its own, derived from
 * JWT_SECRET), valid MAP_TOKEN_SECONDS, and bound to the page's origin and to the client network
 * it was issued to (an IPv6 /64, an IPv4 address): a token copied elsewhere, or kept, does not work.
 *
 * What keeps the map from being the archive for free is not the token (any program can load the
 * page and read it) but what it grants: tiles up to zoom SITE_MAP_MAXZOOM only (the map draws deeper
 * zooms from them), at most 600 tiles a minute per client network (MAP_LIMITER, wrangler.toml).
 * Zooms 0 to 9 are 1,109 of the 35,181 tiles, 4.4 of the archive's 91.9 MB, and hold no village
 * boundary at all (villages start at zoom 10: 2,233 tiles and 17.3 MB at zoom 10 alone, which is why
 * the line is drawn at 9); the villages, what the bulk export mostly sells, need a key. docs/api.md,
 * "Maps", says what an anonymous visitor can take.
 */
import { purposeKey } from "../auth/tokens";
import { base64url, hmacSha256Hex, randomBytes, timingSafeEqual } from "../lib/crypto";
import { clientNetwork } from "./network";

/** How long a token is good for; the map asks for a new one (GET /map/token) before it ends. */
export const MAP_TOKEN_SECONDS = 600;
/** The deepest zoom the site's map gets without a key. */
export const SITE_MAP_MAXZOOM = 9;

const PREFIX = "mt1";
/** A token as sent: mt1.<expiry, unix seconds>.<nonce>.<signature> (base64url). */
const FORMAT = /^mt1\.(\d{10})\.([A-Za-z0-9_-]{16})\.([a-f0-9]{64})$/;

const signed = async (env: Env, body: string, origin: string, network: string) =>
  hmacSha256Hex(await purposeKey(env, "site-map-token"), `${body}|${origin}|${network}`);

/** A token for a page of `origin` served to `ip`; with when it ends. */
export async function mintMapToken(env: Env, origin: string, ip: string | undefined, now = Date.now()): Promise<{ token: string; expiresAt: number }> {
  const exp = Math.floor(now / 1000) + MAP_TOKEN_SECONDS;
  const body = `${PREFIX}.${exp}.${base64url(randomBytes(12))}`;
  return { token: `${body}.${await signed(env, body, origin, clientNetwork(ip))}`, expiresAt: exp * 1000 };
}

/** Whether `token` is good now for a request from `origin` (its Origin, else its Referer's) and `ip`. */
export async function mapTokenValid(env: Env, token: string, origin: string | undefined, ip: string | undefined, now = Date.now()): Promise<boolean> {
  const m = FORMAT.exec(token);
  if (!m || origin === undefined) return false;
  const exp = Number(m[1]);
  const secondsLeft = exp - now / 1000;
  if (secondsLeft <= 0 || secondsLeft > MAP_TOKEN_SECONDS + 60) return false;
  const expected = await signed(env, `${PREFIX}.${m[1]}.${m[2]}`, origin, clientNetwork(ip));
  return timingSafeEqual(expected, m[3]);
}
