/**
 * Who may call the GIS routes (OGC API – Features under /ogc and the FlatGeobuf files), and how
 * they are metered: all of it here, in one place, so the one security gate of issue 50 can take it
 * in as it is.
 *
 * - Callers: a secret API key (`wk_live_`), from the `x-api-key` header or, for desktop GIS tools
 *   that cannot always set a header (QGIS's plain connection, GDAL's /vsicurl/ URLs), from the
 *   `api_key` query parameter of these routes only. Both at once must be the same key (a 400
 *   otherwise: which one is metered must never be a guess). Publishable keys (`wk_pub_`) belong in
 *   web pages: refused here (403 SECRET_KEY_REQUIRED). The landing page, the conformance classes and
 *   the API definition are the same for everyone and take no key.
 * - The query key is taken out of the query here, before anything reads it: no link, page or log
 *   line is ever written from a query that holds it (our logs name the path only, src/lib/log.ts, and
 *   the Worker's invocation logs, which would record the URL, are off: wrangler.toml).
 * - Metering: a page of items is one call (admission as every data call: rate, quota, credits); one
 *   item is one call; the collections' metadata and queryables count against the per-minute rate only
 *   (like MCP's initialize). A FlatGeobuf file is a bulk export (paid plans): a whole download is
 *   one call, as GET /wilayah/export; a range request of up to RANGE_CALL_BYTES is a tenth of a call
 *   (ten per call, as vector tiles: src/tiles/metering.ts), a longer one a whole call, so reading the
 *   file by ranges never costs less than downloading it.
 */
import type { Context } from "hono";
import { admitCall, countRequest, mayCall } from "../account/admission";
import type { BaseEnv } from "../http/context";
import { type Principal, resolveApiKey } from "../keys/service";
import { ApiError } from "../lib/errors";
import { meterTile } from "../tiles/metering";

/** The query parameter a key may come in (./service.ts KEY_PARAM names it in the documents). */
const KEY_PARAM = "api_key";

/** The request's query without the key: what every handler reads. */
export function queryWithoutKey(c: Context<BaseEnv>): Record<string, string[]> {
  const query = c.req.queries();
  delete query[KEY_PARAM];
  return query;
}

/** The caller of a keyed GIS route: a secret key's principal (401 when none or unknown, 403 for a publishable key). */
export async function gisCaller(c: Context<BaseEnv>): Promise<Principal> {
  const fromHeader = c.req.header("x-api-key");
  const fromQuery = c.req.queries(KEY_PARAM);
  if (fromQuery && fromQuery.length > 1) throw new ApiError("INVALID_QUERY", `${KEY_PARAM} was given more than once.`);
  const fromQueryKey = fromQuery?.[0];
  if (fromHeader !== undefined && fromQueryKey !== undefined && fromHeader !== fromQueryKey) {
    throw new ApiError("INVALID_QUERY", `The x-api-key header and the ${KEY_PARAM} query parameter name different keys: send your key once.`);
  }
  const key = fromHeader ?? fromQueryKey;
  if (key === undefined) {
    throw new ApiError(
      "MISSING_API_KEY",
      `Send your secret API key in the x-api-key header, or (GIS tools that cannot set one) as the ${KEY_PARAM} query parameter. Create keys at POST /user/keys or in the portal.`,
    );
  }
  const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
  const principal = await resolveApiKey(c.env, key, waitUntil, c.req.header("cf-connecting-ip"));
  if (principal.publishable) {
    throw new ApiError(
      "SECRET_KEY_REQUIRED",
      "A publishable key (wk_pub_) is for web pages; GIS tools read the OGC API and the FlatGeobuf files with a secret key (wk_live_), kept in the tool's settings.",
    );
  }
  return principal;
}

const waitUntilOf = (c: Context<BaseEnv>) => (p: Promise<unknown>) => c.executionCtx.waitUntil(p);

/** A page of items, or one item: one call. Returns how to give it back if the answer then fails. */
export const meterCall = (c: Context<BaseEnv>, principal: Principal, endpoint: string) => admitCall(c.env, principal, endpoint, waitUntilOf(c));

/** Metadata (collections, queryables): the per-minute rate only, not the quota. */
export const countMetadata = (c: Context<BaseEnv>, principal: Principal) => countRequest(c.env, principal);

/** A range of at most this many bytes is a tenth of a call; a longer one (or the whole file) a call. */
export const RANGE_CALL_BYTES = 1024 * 1024;

/** A FlatGeobuf request: paid plans; `bytes` the length it answers (the whole file when no range). */
export async function meterFile(c: Context<BaseEnv>, principal: Principal, endpoint: string, bytes: number, ranged: boolean): Promise<void> {
  mayCall(principal, endpoint, "paid");
  if (ranged && bytes <= RANGE_CALL_BYTES) await meterTile(principal.keyId, () => admitCall(c.env, principal, endpoint, waitUntilOf(c)));
  else await admitCall(c.env, principal, endpoint, waitUntilOf(c));
}
