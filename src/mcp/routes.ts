import { createMcpHandler } from "agents/mcp/server";
import { Hono } from "hono";
import { admitDataCall, dataEndpoints } from "../data-api";
import { requireApiKey } from "../keys/middleware";
import type { AppEnv } from "../lib/types";
import { buildServer, type McpCallContext } from "./server";

/**
 * Mounted at /mcp (streamable HTTP). Every request is authenticated on its own by `x-api-key`
 * (no session carries identity); the Host header must be one of the deployment's hostnames.
 */
export const mcpRoutes = new Hono<AppEnv>();

mcpRoutes.all("/", requireApiKey, (c) => {
  const props: McpCallContext = { env: c.env, principal: c.get("principal"), waitUntil: (p) => c.executionCtx.waitUntil(p) };
  const hostnames = c.env.MCP_HOSTNAMES.split(",").map((h) => h.trim()).filter(Boolean);
  const handler = createMcpHandler(() => buildServer(dataEndpoints, admitDataCall), {
    route: "/mcp",
    corsOptions: false, // CORS is answered by app.ts for /mcp, like the data API
    ...(hostnames.length ? { allowedHostnames: [...hostnames, "localhost", "127.0.0.1"] } : {}),
    authContext: { props: props as unknown as Record<string, unknown> },
  });
  return handler(c.req.raw, c.env, c.executionCtx as ExecutionContext);
});
