import { Hono } from "hono";
import { requireApiKey } from "../keys/middleware";
import { mountDataEndpoints } from "../lib/rest";
import type { AppEnv } from "../lib/types";
import { admitCall } from "../usage/service";
import { wilayahEndpoints } from "./endpoints";

/** Mounted at /api/v1. */
export const dataRoutes = new Hono<AppEnv>();
mountDataEndpoints(dataRoutes, wilayahEndpoints, { auth: requireApiKey, admit: (ctx, ep) => admitCall(ctx.env, ctx.principal, ep.path) });
