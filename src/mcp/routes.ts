import {
  type AuthInfo,
  isLegacyRequest,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  type McpServer,
  originValidationResponse,
  WebStandardStreamableHTTPServerTransport,
} from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { admitDataCall, dataEndpoints } from "../catalogue";
import type { CallEnv, DataContext } from "../data/context";
import { gate } from "../gate";
import type { BaseEnv } from "../http/context";
import { ApiError } from "../lib/errors";
import { jobsStatusTool } from "./jobs";
import { reportTool } from "./reports";
import { buildServer } from "./server";

/** Tools about the caller's account, beside the data tools: counted against the rate, not metered. */
const ACCOUNT_TOOLS = [jobsStatusTool, reportTool];

/**
 * Host and Origin of /mcp. The Host (the check that stops DNS rebinding) must be localhost, the
 * deployment's own `*.workers.dev` name or one of MCP_HOSTNAMES (comma-separated, any case). A
 * browser page's Origin (non-browser clients send none) must be localhost-class, the endpoint's own
 * hostname or one of MCP_HOSTNAMES; any other page is refused with the SDK's own 403 answer. (That
 * is the check the agents handler would make, made once here for both protocol eras and widened to
 * our own hostnames.)
 */
const requireMcpHost = createMiddleware<BaseEnv>(async (c, next) => {
  const hostname = new URL(c.req.url).hostname.toLowerCase();
  const configured = c.env.MCP_HOSTNAMES.split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  if (!localhostAllowedHostnames().includes(hostname) && !hostname.endsWith(".workers.dev") && !configured.includes(hostname)) {
    throw new ApiError("FORBIDDEN", `This MCP endpoint does not answer for the host "${hostname}". Add it to MCP_HOSTNAMES if it is yours.`);
  }
  const refused = originValidationResponse(c.req.raw, [...localhostAllowedOrigins(), hostname, ...configured]);
  if (refused) return refused;
  await next();
});

/**
 * A 401 from /mcp names how to authenticate (RFC 9110 wants a challenge on every 401): an API key
 * in the `x-api-key` header, under a scheme of its own, not `Bearer`. This endpoint has no OAuth
 * (there is no authorization server or protected-resource metadata to discover): a client reading
 * the challenge learns that a header is wanted, and the JSON body says which code (MISSING_API_KEY,
 * INVALID_API_KEY). The MCP Inspector's CLI shows that body (docs/api.md, "Agent tool surface").
 */
export const MCP_CHALLENGE = 'ApiKey realm="wilayah-api", header="x-api-key"';
const challengeOn401 = createMiddleware<BaseEnv>(async (c, next) => {
  await next();
  if (c.res.status === 401) c.res.headers.set("www-authenticate", MCP_CHALLENGE);
});

/**
 * Who may call /mcp, decided by the gate (src/gate) before this route runs: a secret API key (its
 * account tools as much as its data tools: a publishable key is refused), every request counted
 * against the plan's per-minute rate like a call (initialize, tools/list, notifications and tool
 * calls alike: a tool call is then admitted for its quota by the tool). The gate's 401s carry the
 * challenge too.
 */
const mcpGate = gate<CallEnv>({ callers: ["secretKey"], tag: "MCP", meter: "rate", methods: ["GET", "POST", "DELETE"], challenge: MCP_CHALLENGE });

/**
 * Each request's call context (and, for a tools/call, the one tool it needs), found by the SDK's
 * per-request AuthInfo object: the handler passes the object it is given to the server factory as
 * is. (No API key in it: `token` is the key's id.)
 */
const requests = new WeakMap<AuthInfo, { call: DataContext; tool?: string }>();

/**
 * The 2026-07-28 (per-request envelope) leg: the agents handler, one per isolate (a handler built
 * per request starts every one of its closures cold on every request). The server
 * itself is still built per request. 2025-era traffic never reaches it (`legacy: "reject"`): it is
 * served by `serveLegacy` below.
 */
let handler: ReturnType<typeof createMcpHandler> | undefined;
function mcpHandler() {
  handler ??= createMcpHandler(
    ({ authInfo }) => {
      const request = authInfo && requests.get(authInfo);
      if (!request) throw new Error("MCP request without a call context");
      return buildServer(dataEndpoints, admitDataCall, request.call, request.tool, ACCOUNT_TOOLS);
    },
    {
      route: "/mcp",
      corsOptions: false, // CORS is answered by app.ts for /mcp, like the data API
      keepAliveMs: 0, // stateless: each stream carries one answer and ends, nothing to keep alive
      legacy: "reject", // 2025-era requests are routed to serveLegacy before they get here
      allowedOriginHostnames: "*", // Origin is checked upstream, by requireMcpHost (the documented use of "*")
    },
  );
  return handler;
}

/**
 * Mounted at /mcp (streamable HTTP, stateless). The Host and Origin are checked first; then every
 * request is authenticated on its own by `x-api-key` (no session carries identity). The SDK's own
 * classifier (`isLegacyRequest`) sends 2025-era traffic, which is what clients speak today, to
 * `serveLegacy`, and the rest to the agents handler.
 */
export const mcpRoutes = new Hono<BaseEnv>();

mcpRoutes.all("/", requireMcpHost, challengeOn401, mcpGate, async (c) => {
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
  // The request's rate was counted by the gate; a data tool's call is admitted (quota, metering) by the tool.
  const tool = calledTool(parsedBody);
  if (await isLegacyRequest(c.req.raw, parsedBody))
    return serveLegacy(c.req.raw, parsedBody, authInfo, () => buildServer(dataEndpoints, admitDataCall, call, tool, ACCOUNT_TOOLS));
  requests.set(authInfo, { call, tool });
  return mcpHandler().fetch(c.req.raw, { authInfo, parsedBody });
});

/**
 * 2025-era traffic, served statelessly as the SDK documents it (a fresh server and a
 * `WebStandardStreamableHTTPServerTransport` without sessions per request), with
 * `enableJsonResponse`: our tools answer with one message and send no notifications, so the answer
 * is that one JSON message (Streamable HTTP lets the server pick JSON when the client accepts both)
 * rather than an SSE stream holding it. This is the SDK's stateless fallback minus the stream, whose
 * wrappers cost a tools/call more than the tool itself (docs/performance.md, "MCP").
 * GET and DELETE (2025 session operations) have no meaning without sessions: 405, as the SDK's
 * fallback answers them. Our tools never send server-to-client requests.
 */
async function serveLegacy(request: Request, parsedBody: unknown, authInfo: AuthInfo, server: () => McpServer): Promise<Response> {
  if (request.method !== "POST") {
    return Response.json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed." }, id: null }, { status: 405, headers: { allow: "POST" } });
  }
  const product = server();
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await product.connect(transport);
  try {
    // Once the JSON answer (or a 202 for notifications, or a JSON-RPC error) is back, the exchange
    // is complete and this request's server and transport hold nothing: no stream, no timer, no
    // request of ours in flight. They are left to the garbage collector rather than closed: close()
    // would only abort the finished handler's signal and build a "Connection closed" error with a
    // stack, for nothing (docs/performance.md, "MCP").
    return await transport.handleRequest(request, { authInfo, parsedBody });
  } catch (e) {
    await product.close();
    throw e;
  }
}

/** The tool a single `tools/call` message names: the server built for it needs no other. */
function calledTool(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  return method === "tools/call" && typeof params?.name === "string" ? params.name : undefined;
}
