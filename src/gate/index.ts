/**
 * The gate: the one owner of "who is calling" (issue 50). Every route of the app declares which
 * callers it takes, and one middleware (keeper.ts, first in src/app.ts) decides for every request,
 * before the route's own chain runs and before its body is read: the caller (an API key, secret or
 * publishable from an allowed origin; a session token; the portal's cookie; the site map's token;
 * Tripay's signature), then per-client throttles, the account's rate and quota, and the body limit.
 * test/gate/routes.test.ts lists every route the router serves and fails when one declares no
 * policy; test/gate/suite.test.ts tries every declared route as an attacker would (no credential, a
 * bad, unknown or revoked key, a publishable key from elsewhere, a spent quota and rate, a body over
 * the limit, HEAD and unknown methods). A route gets that suite by being declared.
 *
 * How a new route declares its callers: put one of these in its chain (before the handler; the
 * position does not matter, the gate reads it from the router):
 *
 *   app.get("/user/requests", requireUser, handler)                      // a session (Authorization: Bearer)
 *   app.get("/billing/receipts/:id", requireUser, handler)
 *   app.patch("/admin/x/:id", requireAdmin, handler)                     // a session of an admin
 *   app.get("/open", gate({ callers: ["anyone"] }), handler)              // public
 *   app.get("/tiles/:z/:x/:y", gate({                                    // an API key: secret, or publishable
 *     callers: ["secretKey", "publishableKey"], tag: "Tiles",             //   from an allowed origin when the tag
 *     meter: "tile", endpoint: "/tiles/{z}/{x}/{y}.mvt" }), handler)     //   is in PUBLISHABLE_TAGS; metered
 *   portalPages.get("/alerts", signedIn, handler)                        // a portal page (src/portal/context.ts)
 *
 *   app.get("/ogc/collections/:collectionId/items", gate({               // a secret key, also from `?api_key=`
 *     callers: ["secretKey"], tag: "GIS (OGC API – Features)",            //   (GIS tools; taken out of the URL by
 *     keyParam: "api_key", meter: "call", endpoint: "..." }), handler)   //   the gate): src/ogc/routes.ts
 *
 * Data endpoints (src/data/endpoint.ts) are declared by the catalogue (`endpointGate`): nothing to
 * add. A credential the gate does not know yet is added to callers.ts (one place), named in the
 * policy, and the suite tries it; a route never reads a credential itself. What each field means is in policy.ts (`GatePolicy`); docs/api.md "Callers"
 * says the same for readers of the API.
 */
import type { MiddlewareHandler } from "hono";
import type { UserEnv } from "../auth/guards";
import { gate } from "./policy";

export { type Caller, PORTAL_KEY_ID } from "./callers";
export { gateKeeper } from "./keeper";
export { mintMapToken, SITE_MAP_MAXZOOM } from "./map-token";
export { clientNetwork } from "./network";
export { declaring, type GatePolicy, gate, routePolicies } from "./policy";

/** `Authorization: Bearer <session JWT>`: the gate sets `user` (read from D1 on every request, so a suspension applies at once). */
export const requireUser: MiddlewareHandler<UserEnv> = gate({ callers: ["session"] });

/** A session of an administrator (403 FORBIDDEN for anyone else). */
export const requireAdmin: MiddlewareHandler<UserEnv> = gate({ callers: ["admin"], admin: true });

/** Public: no credential. */
export const publicRoute = gate({ callers: ["anyone"] });
