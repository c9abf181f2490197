import { createMcpHandler } from "agents/mcp/server";
import { Hono } from "hono";
import { admitDataCall, dataEndpoints } from "../data-api";
import { requireApiKey } from "../http/guards";
import type { AppEnv } from "../lib/types";
import { buildServer } from "./server";

/**
 * The hostnames /mcp answers for (the Host header check that stops DNS rebinding): the configured
 * MCP_HOSTNAMES, localhost, and the deployment's own `*.workers.dev` name.
 */
export function mcpHostnames(env: Env, requestHostname: string): string[] {
  const names = env.MCP_HOSTNAMES.split(",").map((h) => h.trim().toLowerCase()).filter(Boolean);
  names.push("localhost", "127.0.0.1", "[::1]");
  if (requestHostname.endsWith(".workers.dev")) names.push(requestHostname);
  return names;
}

/**
 * Mounted at /mcp (streamable HTTP, stateless). Every request is authenticated on its own by
 * `x-api-key` (no session carries identity); its call context reaches the tools by closure.
 */
export const mcpRoutes = new Hono<AppEnv>();

mcpRoutes.all("/", requireApiKey, (c) => {
  const call = c.get("call");
  const handler = createMcpHandler(() => buildServer(dataEndpoints, admitDataCall, call), {
    route: "/mcp",
    corsOptions: false, // CORS is answered by app.ts for /mcp, like the data API
    allowedHostnames: mcpHostnames(c.env, new URL(c.req.url).hostname),
  });
  return handler(c.req.raw, c.env, c.executionCtx as ExecutionContext);
});
