/**
 * The one way in: request id, CORS, errors, then each feature's routes.
 */
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { HTTPException } from "hono/http-exception";
import { requestId } from "hono/request-id";
import { TrieRouter } from "hono/router/trie-router";
import { ApiError, type ErrorCode, errorBody } from "./lib/errors";
import type { AppContext, AppEnv } from "./lib/types";
import { adminRoutes } from "./admin/routes";
import { authRoutes } from "./auth/routes";
import { billingRoutes } from "./billing/routes";
import { keyRoutes } from "./keys/routes";
import { usageRoutes } from "./usage/routes";
import { dataRoutes } from "./data-api";
import { mcpRoutes } from "./mcp/routes";

export const app = new Hono<AppEnv>();

app.use("*", requestId({ headerName: "x-request-id" }));

const DATA_CORS = cors({
  origin: "*",
  allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
  allowHeaders: ["x-api-key", "authorization", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id"],
  exposeHeaders: ["x-request-id", "x-data-version", "x-cache", "retry-after", "mcp-session-id"],
  maxAge: 86_400,
});
app.use("/api/v1/*", DATA_CORS);
app.use("/mcp", DATA_CORS);
app.use("/mcp/*", DATA_CORS);
app.use("*", async (c, next) => {
  // Account routes answer the dashboard only.
  if (c.req.path.startsWith("/api/v1/") || c.req.path.startsWith("/mcp")) return next();
  return cors({ origin: c.env.DASHBOARD_URL, allowHeaders: ["authorization", "content-type"], exposeHeaders: ["x-request-id", "retry-after"], maxAge: 86_400 })(c, next);
});

// JSON bodies on account routes are small; anything larger is refused before parsing.
app.use(
  "*",
  bodyLimit({
    maxSize: 64 * 1024,
    onError: () => {
      throw new ApiError("PAYLOAD_TOO_LARGE", "The request body is larger than 64 KiB.");
    },
  }),
);

app.get("/health", (c) => c.json({ status: "ok" }));
app.route("/auth", authRoutes);
app.route("/user/keys", keyRoutes);
app.route("/user/usage", usageRoutes);
app.route("/billing", billingRoutes);
app.route("/admin", adminRoutes);
app.route("/api/v1", dataRoutes);
app.route("/mcp", mcpRoutes);

// ---------------------------------------------------------------- errors

function errorResponse(c: AppContext, code: ErrorCode, status: number, message: string, extra: ApiError["extra"] = {}) {
  for (const [k, v] of Object.entries(extra.headers ?? {})) c.header(k, v);
  return c.json(errorBody(code, message, c.get("requestId"), extra.details), status as 400);
}

app.onError((err, c) => {
  if (err instanceof ApiError) return errorResponse(c, err.code, err.status, err.message, err.extra);
  if (err instanceof HTTPException) {
    if (err.status === 413) return errorResponse(c, "PAYLOAD_TOO_LARGE", 413, "The request body is too large.");
    if (err.status === 400) return errorResponse(c, "INVALID_JSON", 400, "The request body is not valid JSON.");
  }
  // Digit runs of NIK length are masked: /api/v1/wilayah/nik/:nik must never put a NIK in a log.
  console.error(JSON.stringify({ level: "error", request_id: c.get("requestId"), path: c.req.path.replace(/\d{16,}/g, "<redacted>"), error: String(err) }));
  return errorResponse(c, "INTERNAL_ERROR", 500, "Something went wrong on our side. Quote the request id when you contact support.");
});

// Unknown path: 404; known path with another method: 405 with Allow.
let methodRouter: TrieRouter<string> | undefined;
function allowedMethods(path: string): string[] {
  if (!methodRouter) {
    methodRouter = new TrieRouter<string>();
    for (const r of app.routes) if (r.method !== "ALL") methodRouter.add(r.method, r.path, r.method);
  }
  const router = methodRouter;
  return ["GET", "POST", "PUT", "PATCH", "DELETE"].filter((m) => router.match(m, path)[0].length > 0);
}

app.notFound((c) => {
  const allowed = allowedMethods(c.req.path);
  if (allowed.length > 0) {
    return errorResponse(c, "METHOD_NOT_ALLOWED", 405, `${c.req.method} is not allowed here; use ${allowed.join(", ")}.`, {
      headers: { allow: allowed.join(", ") },
    });
  }
  return errorResponse(c, "NOT_FOUND", 404, `No endpoint at ${c.req.method} ${c.req.path}. See the API docs.`);
});
