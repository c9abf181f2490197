/**
 * The one way in: composition only. Request id, CORS, the gate (who is calling, rate, quota, body
 * limit: src/gate, for every route by its declared policy), then each surface's routes:
 * account REST routes (src/routes), the data API (src/data, over the catalogue), MCP, the API
 * document and the portal. Errors and unknown routes are answered by src/http/errors.ts.
 */
import { type ErrorHandler, Hono } from "hono";
import { admitDataCall, dataEndpoints, endpointGate } from "./catalogue";
import { dataRoutes } from "./data/rest";
import { gateKeeper, publicRoute } from "./gate";
import type { BaseEnv } from "./http/context";
import { accountCors, dataCors, mcpCors } from "./http/cors";
import { d1Stats } from "./http/d1-stats";
import { onError, unknownRoutes } from "./http/errors";
import { serverRequestId } from "./http/request-id";
import { mcpRoutes } from "./mcp/routes";
import { ogcError, speaksOgc } from "./ogc/protocol";
import { ogcRoutes } from "./ogc/routes";
import { apiDocRoutes } from "./openapi/routes";
import { oauthRoutes } from "./portal/oauth";
import { portalErrorPage, portalRoutes } from "./portal/routes";
import { adminRoutes } from "./routes/admin";
import { alertRoutes } from "./routes/alerts";
import { authRoutes } from "./routes/auth";
import { billingRoutes } from "./routes/billing";
import { feedRoutes } from "./routes/feed";
import { healthRoutes } from "./routes/health";
import { jobRoutes } from "./routes/jobs";
import { keyRoutes } from "./routes/keys";
import { ownReportRoutes, reportRoutes } from "./routes/reports";
import { requestRoutes } from "./routes/requests";
import { tileRoutes } from "./routes/tiles";
import { usageRoutes } from "./routes/usage";
import { webhookRoutes } from "./routes/webhooks";
import { guideRoutes } from "./site/guides";
import { siteRoutes } from "./site/routes";

export const app = new Hono<BaseEnv>();

// The gate's refusals of portal pages are pages too, as the portal's own errors are; those of the
// OGC API and the FlatGeobuf files are OGC exceptions, as the GIS routes' own errors are; so are
// their unknown addresses and methods (the portal's are the contract's JSON, as before).
const answerOgcOr =
  (other: ErrorHandler<BaseEnv>): ErrorHandler<BaseEnv> =>
  (e, c) =>
    speaksOgc(c.req.path) ? ogcError(e, c) : other(e, c);
const answerError = answerOgcOr((e, c) => (c.req.path === "/portal" || c.req.path.startsWith("/portal/") ? portalErrorPage(e, c as never) : onError(e, c)));
const unknown = unknownRoutes(app, answerOgcOr(onError));

app.use("*", serverRequestId);
app.use("*", d1Stats);
app.use("*", unknown.preflight);
app.use("/api/v1/*", dataCors);
app.use("/tiles/*", dataCors);
app.use("/ogc", dataCors);
app.use("/ogc/*", dataCors);
app.use("/mcp", mcpCors);
app.use("/mcp/*", mcpCors);
app.use("*", accountCors);
// Who is calling, rate, quota and the body limit of every route, before its chain runs (src/gate).
app.use("*", gateKeeper);

app.route("/", healthRoutes);
app.route("/auth/oauth", oauthRoutes);
app.route("/auth", authRoutes);
app.route("/user/keys", keyRoutes);
app.route("/user/usage", usageRoutes);
app.route("/user/requests", requestRoutes);
app.route("/user/alerts", alertRoutes);
app.route("/user/webhooks", webhookRoutes);
app.route("/user/reports", ownReportRoutes);
app.route("/billing", billingRoutes);
app.route("/admin", adminRoutes);
// The Atom feed of editions (/wilayah/changes.atom): public, not a metered data call.
app.route("/", feedRoutes);
app.route("/api/v1/jobs", jobRoutes);
// Reports of wrong facts (POST /api/v1/wilayah/{id}/reports): an API key or a session, not a metered data call.
app.route("/api/v1/wilayah", reportRoutes);
// GIS tools (src/ogc): OGC API – Features at /ogc and each level's FlatGeobuf file by range requests
// (/api/v1/wilayah/export/{level}.fgb, before the data routes); keys also in a query parameter there only.
app.route("/", ogcRoutes);
app.route("/api/v1", dataRoutes(dataEndpoints, admitDataCall, endpointGate));
// Vector tiles, their TileJSON and style (src/tiles): keyed and metered per tile, outside /api/v1 as map clients expect.
app.route("/", tileRoutes);
app.route("/mcp", mcpRoutes);
app.route("/docs/guide", guideRoutes);
app.route("/", apiDocRoutes(app));
app.route("/", siteRoutes);
// Verification links land on {DASHBOARD_URL}/?verified=1: the portal's own address is /portal.
app.get("/portal/", publicRoute, (c) => c.redirect(`/portal${new URL(c.req.url).search}`, 301));
app.route("/portal", portalRoutes);

app.onError(answerError);
app.notFound(unknown.notFound);
