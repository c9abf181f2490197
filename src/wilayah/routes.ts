import { Hono } from "hono";
import { requireApiKey } from "../keys/middleware";
import { mountDataEndpoints } from "../lib/rest";
import type { AppEnv } from "../lib/types";
import { wilayahEndpoints } from "./endpoints";

/** Mounted at /api/v1. */
export const dataRoutes = new Hono<AppEnv>();
dataRoutes.use("*", requireApiKey);
mountDataEndpoints(dataRoutes, wilayahEndpoints);
