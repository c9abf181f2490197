/**
 * The catalogue: every data endpoint of the product, declared once by its domain, in route order.
 * REST serves it at /api/v1 (src/data/rest.ts), the MCP surface as tools (src/mcp), the API
 * document as operations (src/openapi). It sits above the domains that declare the endpoints and
 * wires in the gate's policy of each (src/gate: who may call, rate and quota before the body) and
 * the account's admission of a batch's other calls, which the data plane only knows as hooks.
 */
import type { MiddlewareHandler } from "hono";
import { admitCall, mayCall } from "./account/admission";
import { logCall } from "./account/request-log";
import type { CallEnv } from "./data/context";
import { type DataEndpoint, endpointTag, type JsonEndpoint } from "./data/endpoint";
import type { Admit } from "./data/run";
import { gate } from "./gate";
import { PUBLISHABLE_TAGS } from "./keys/publishable";
import { withOpenReports } from "./reports/open";
import { weatherEndpoints } from "./weather/endpoints";
import { addressEndpoints } from "./wilayah/addresses/endpoints";
import { bpsEndpoint } from "./wilayah/bps/endpoints";
import { toDottedId } from "./wilayah/codes";
import { coverageEndpoint, missingEndpoint } from "./wilayah/coverage/endpoints";
import { exportEndpoints, mappingEndpoint } from "./wilayah/export/endpoints";
import { boundaryEndpoint, reverseEndpoint } from "./wilayah/geo/endpoints";
import { historyEndpoints } from "./wilayah/history/endpoints";
import { islandEndpoints } from "./wilayah/islands/endpoints";
import { nearbyEndpoint } from "./wilayah/nearby/endpoints";
import { neighborsEndpoint } from "./wilayah/neighbors/endpoints";
import { nikEndpoints } from "./wilayah/nik/endpoints";
import { postalEndpoint } from "./wilayah/postal/endpoints";
import { detailEndpoint, regionEndpoints } from "./wilayah/regions/endpoints";
import { searchEndpoint } from "./wilayah/search/endpoints";

/**
 * A by-id answer says how many open reports dispute the region (`open_reports`, src/reports/open.ts):
 * added after the response cache from this isolate's set of disputed regions, so no by-id call reads
 * D1 for it and the cached answer stays the same for everyone.
 */
function disputed<E extends JsonEndpoint>(ep: E): E {
  return { ...ep, annotate: (json, input: { id: string }, ctx) => withOpenReports(json, toDottedId(input.id), ctx.env, ctx.waitUntil) };
}

export const dataEndpoints: readonly DataEndpoint[] = [
  ...regionEndpoints.map((ep) => (ep.path.endsWith("/:id") ? disputed(ep) : ep)),
  searchEndpoint,
  reverseEndpoint,
  postalEndpoint,
  bpsEndpoint,
  ...islandEndpoints,
  ...nikEndpoints,
  boundaryEndpoint,
  ...historyEndpoints,
  nearbyEndpoint,
  neighborsEndpoint,
  coverageEndpoint,
  missingEndpoint,
  ...addressEndpoints,
  ...exportEndpoints,
  mappingEndpoint,
  // Last of the regions: routes match in registration order, and `/wilayah/:id` would take /wilayah/search, /reverse, /pulau, /editions, /changes, /nearby, /coverage, /address, /export
  // (two-segment paths such as /wilayah/changes/mapping and /wilayah/export/manifest are before it too, beside `/wilayah/:id/boundary` and the like).
  disputed(detailEndpoint),
  ...weatherEndpoints,
];

/** The data API's bodies (POST batches: a hundred addresses, a thousand codes) are larger than the account routes' 64 KiB. */
const DATA_BODY_BYTES = 256 * 1024;

/**
 * A data endpoint's caller policy: an API key (publishable too when its tag is one a page may call),
 * one metered call admitted by the gate before the input is read, the free plan refused first when
 * the endpoint is for paid plans.
 */
export function endpointGate(ep: DataEndpoint): MiddlewareHandler<CallEnv> {
  const tag = endpointTag(ep);
  return gate({
    callers: PUBLISHABLE_TAGS.has(tag) ? ["secretKey", "publishableKey"] : ["secretKey"],
    tag,
    meter: "call",
    endpoint: ep.path,
    plans: ep.plans,
    body: ep.method === "POST" ? DATA_BODY_BYTES : undefined,
    log: { surface: "rest", route: ep.path },
  });
}

/**
 * Who may call, then the calls counted: the same for REST and MCP. The request's rate was counted
 * by the gate (once per request, REST or MCP), and on REST its first call admitted there too
 * (`prepaid`): a batch admits only its other calls here, whole or not at all. Every call goes to
 * the account's request log.
 */
export const admitDataCall: Admit = {
  mayCall: (ctx, ep) => mayCall(ctx.principal, ep.path, ep.plans),
  admit: async (ctx, ep, calls) => {
    const rest = calls - (ctx.prepaid?.take() ? 1 : 0);
    if (rest <= 0) return { giveBack: async () => undefined };
    return admitCall(ctx.env, ctx.principal, ep.path, ctx.waitUntil, rest, { rate: false });
  },
  record: (ctx, call) => logCall(ctx.env, ctx.waitUntil, { ...call, principal: ctx.principal, requestId: ctx.requestId, ip: ctx.ip }),
};
