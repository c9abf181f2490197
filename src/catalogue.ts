/**
 * The catalogue: every data endpoint of the product, declared once by its domain, in route order.
 * REST serves it at /api/v1 (src/data/rest.ts), the MCP surface as tools (src/mcp), the API
 * document as operations (src/openapi). It sits above the domains that declare the endpoints and
 * wires in the account's admission (rate, quota, metering), which the data plane only knows as a hook.
 */
import { admitCall } from "./account/admission";
import type { DataEndpoint } from "./data/endpoint";
import type { Admit } from "./data/run";
import { weatherEndpoints } from "./weather/endpoints";
import { wilayahEndpoints } from "./wilayah/endpoints";

export const dataEndpoints: readonly DataEndpoint[] = [...wilayahEndpoints, ...weatherEndpoints];

/** Rate, quota and metering, the same for REST and MCP. */
export const admitDataCall: Admit = (ctx, ep) => admitCall(ctx.env, ctx.principal, ep.path, ctx.waitUntil);
