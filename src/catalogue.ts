/**
 * Every data endpoint of the product, declared once. `dataRoutes` serves them over REST at
 * /api/v1; the MCP surface (src/mcp) serves the same list as tools.
 */
import { Hono } from "hono";
import type { DataEndpoint } from "./data/endpoint";
import { mountDataEndpoints } from "./data/rest";
import type { Admit } from "./data/run";
import { requireApiKey } from "./http/guards";
import type { AppEnv } from "./lib/types";
import { admitCall } from "./account/service";
import { weatherEndpoints } from "./weather/endpoints";
import { wilayahEndpoints } from "./wilayah/regions/endpoints";

export const dataEndpoints: readonly DataEndpoint[] = [...wilayahEndpoints, ...weatherEndpoints];

/** Rate, quota and metering, the same for REST and MCP. */
export const admitDataCall: Admit = (ctx, ep) => admitCall(ctx.env, ctx.principal, ep.path, ctx.waitUntil);

/** Mounted at /api/v1. */
export const dataRoutes = new Hono<AppEnv>();
mountDataEndpoints(dataRoutes, dataEndpoints, { auth: requireApiKey, admit: admitDataCall });
