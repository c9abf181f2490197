import type { AuthInfo } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { admitDataCall, dataEndpoints } from "../data-api";
import { requireApiKey } from "../http/guards";
import { ApiError } from "../lib/errors";
import type { AppEnv, DataContext } from "../lib/types";
import { buildServer } from "./server";

/**
 * The hostnames /mcp answers for (the Host check that stops DNS rebinding): the configured
 * MCP_HOSTNAMES, localhost, and the deployment's own `*.workers.dev` name.
 */
export function mcpHostAllowed(env: Env, hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (["localhost", "127.0.0.1", "[::1]"].includes(host) || host.endsWith(".workers.dev")) return true;
  return env.MCP_HOSTNAMES.split(",").some((h) => h.trim().toLowerCase() === host);
}

const requireMcpHost = createMiddleware<AppEnv>(async (c, next) => {
  const hostname = new URL(c.req.url).hostname;
  if (!mcpHostAllowed(c.env, hostname)) {
    throw new ApiError("FORBIDDEN", `This MCP endpoint does not answer for the host "${hostname}". Add it to MCP_HOSTNAMES if it is yours.`);
  }
  await next();
});

/**
 * Each request's call context (and, for a tools/call, the one tool it needs), found by the SDK's
 * per-request AuthInfo object: the handler passes the object it is given to the server factory as
 * is. (No API key in it: `token` is the key's id.)
 */
const requests = new WeakMap<AuthInfo, { call: DataContext; tool?: string }>();

/**
 * One handler per isolate: a handler built per request starts every one of its closures cold (no
 * JIT feedback), which halved MCP throughput. The server itself is still built per request.
 */
let handler: ReturnType<typeof createMcpHandler> | undefined;
function mcpHandler() {
  handler ??= createMcpHandler(
    ({ authInfo }) => {
      const request = authInfo && requests.get(authInfo);
      if (!request) throw new Error("MCP request without a call context");
      return buildServer(dataEndpoints, admitDataCall, request.call, request.tool);
    },
    {
      route: "/mcp",
      corsOptions: false, // CORS is answered by app.ts for /mcp, like the data API
      keepAliveMs: 0, // stateless: each stream carries one answer and ends, nothing to keep alive
      allowedOriginHostnames: undefined, // browser Origins: localhost and *.workers.dev (the agents default)
    },
  );
  return handler;
}

/**
 * Mounted at /mcp (streamable HTTP, stateless). The Host is checked first; then every request is
 * authenticated on its own by `x-api-key` (no session carries identity).
 */
export const mcpRoutes = new Hono<AppEnv>();

mcpRoutes.all("/", requireMcpHost, requireApiKey, async (c) => {
  const call = c.get("call");
  // The body is read and parsed once, here; the SDK would otherwise clone and read it twice.
  let parsedBody: unknown;
  if (c.req.method === "POST") {
    try {
      parsedBody = JSON.parse(await c.req.text());
    } catch {
      return c.json({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: the request body is not valid JSON" }, id: null }, 400);
    }
  }
  const authInfo: AuthInfo = { token: call.principal.keyId, clientId: call.principal.keyId, scopes: [] };
  requests.set(authInfo, { call, tool: calledTool(parsedBody) });
  const res = await mcpHandler().fetch(c.req.raw, { authInfo, parsedBody });
  return singleMessageAsJson(res, c.req.header("accept"));
});

/** The tool a single `tools/call` message names: the server built for it needs no other. */
function calledTool(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  return method === "tools/call" && typeof params?.name === "string" ? params.name : undefined;
}

/**
 * Our tools answer with one message and send no notifications, so when the client accepts
 * `application/json` the answer is sent as that one JSON message (Streamable HTTP allows either)
 * instead of an SSE stream holding it: no stream to keep open, no event framing. A stream with
 * anything else in it is passed on as it is.
 */
async function singleMessageAsJson(res: Response, accept: string | undefined): Promise<Response> {
  if (!res.headers.get("content-type")?.startsWith("text/event-stream") || !accept?.includes("application/json")) return res;
  const text = await res.text();
  const events = text.split("\n\n").filter((e) => e.trim() !== "");
  const data = events.length === 1 ? events[0].split("\n").filter((l) => l.startsWith("data:")) : [];
  const headers = new Headers(res.headers);
  if (data.length !== 1) return new Response(text, { status: res.status, headers });
  for (const h of ["content-type", "cache-control", "x-accel-buffering"]) headers.delete(h);
  headers.set("content-type", "application/json");
  return new Response(data[0].slice(5).trim(), { status: res.status, headers });
}
