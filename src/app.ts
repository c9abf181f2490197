/**
 * The one way in: composition only. Request id, CORS, body limit, then each surface's routes;
 * errors and unknown routes are answered by the handlers beside ApiError (src/lib/errors.ts).
 */
import { Hono } from "hono";
import { z } from "zod";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { requestId } from "hono/request-id";
import { adminRoutes } from "./routes/admin";
import { authRoutes } from "./routes/auth";
import { billingRoutes } from "./routes/billing";
import { oauthRoutes } from "./portal/oauth";
import { portalRoutes } from "./portal/routes";
import { dataRoutes } from "./catalogue";
import { publicCors } from "./http/cors";
import { keyRoutes } from "./routes/keys";
import { ApiError, onError, unknownRoutes } from "./lib/errors";
import type { AppEnv } from "./lib/types";
import { mcpRoutes } from "./mcp/routes";
import { doc } from "./http/docs";
import { apiDocRoutes } from "./openapi/routes";
import { usageRoutes } from "./routes/usage";

export const app = new Hono<AppEnv>();
const unknown = unknownRoutes(app);

app.use("*", requestId({ headerName: "x-request-id" }));
app.use("*", unknown.preflight);

const PUBLIC_CORS = {
  allowMethods: ["GET", "POST", "DELETE", "OPTIONS"],
  allowHeaders: ["x-api-key", "authorization", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id"],
  exposeHeaders: ["x-request-id", "x-data-version", "x-cache", "retry-after", "mcp-session-id"],
  maxAge: 86_400,
};
app.use("/api/v1/*", publicCors(PUBLIC_CORS));
// MCP answers are the SDK transport's own Responses: Hono's cors, whose header copy also carries the
// request id onto them.
const MCP_CORS = cors({ origin: "*", ...PUBLIC_CORS });
app.use("/mcp", MCP_CORS);
app.use("/mcp/*", MCP_CORS);
app.use("*", async (c, next) => {
  // Account routes answer the dashboard only.
  if (c.req.path.startsWith("/api/v1/") || c.req.path.startsWith("/mcp")) return next();
  // No DASHBOARD_URL: the dashboard is the portal on this origin, which needs no CORS.
  if (!c.env.DASHBOARD_URL) return next();
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

app.get(
  "/health",
  doc({ tags: ["Health"], summary: "Liveness", caller: "none", ok: { description: "The Worker answers", schema: z.object({ status: z.literal("ok") }) } }),
  (c) => c.json({ status: "ok" as const }),
);
app.route("/auth/oauth", oauthRoutes);
app.route("/auth", authRoutes);
app.route("/user/keys", keyRoutes);
app.route("/user/usage", usageRoutes);
app.route("/billing", billingRoutes);
app.route("/admin", adminRoutes);
app.route("/api/v1", dataRoutes);
app.route("/mcp", mcpRoutes);
app.route("/", apiDocRoutes(app));
app.get("/", (c) => c.redirect("/portal", 302));
// Verification links land on {DASHBOARD_URL}/?verified=1: the portal's own address is /portal.
app.get("/portal/", (c) => c.redirect(`/portal${new URL(c.req.url).search}`, 301));
app.route("/portal", portalRoutes);

app.onError(onError);
app.notFound(unknown.notFound);
