import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { bearerToken } from "../auth/guards";
import { userFromSession } from "../auth/service";
import type { CallEnv } from "../data/context";
import { requireApiKey } from "../data/guard";
import { pageBody } from "../http/answer";
import { type BaseEnv, requestMeta } from "../http/context";
import { doc } from "../http/docs";
import { jsonBody, queryParams } from "../http/validate";
import { ApiError } from "../lib/errors";
import { ownReportsQuery, reportInput, reportListResponse, reportResponse } from "../reports/schemas";
import { fileReport, listOwnReports, REPORTS_PER_DAY, REPORTS_PER_MINUTE, type Reporter } from "../reports/service";

/** Who is reporting: set by `keyOrSession`. */
type ReporterEnv = { Bindings: Env; Variables: BaseEnv["Variables"] & Partial<CallEnv["Variables"]> & { reporter: Reporter } };

const tags = ["Reports"];
const keyGuard = requireApiKey(tags[0]);

/**
 * An API key (`x-api-key`, as data calls send it) or a session token (`Authorization: Bearer`, as the
 * account routes take it); neither is metered. A session's account must have verified its email,
 * as it must to hold a key.
 */
const keyOrSession = createMiddleware<ReporterEnv>(async (c, next) => {
  const meta = requestMeta(c);
  if (c.req.header("x-api-key") !== undefined || c.req.header("authorization") === undefined) {
    await keyGuard(c as never, async () => undefined);
    const call = c.get("call");
    if (!call) throw new ApiError("MISSING_API_KEY", "Send an API key (x-api-key) or a session token (Authorization: Bearer).");
    c.set("reporter", { ...meta, userId: call.principal.userId, keyId: call.principal.keyId });
  } else {
    const user = await userFromSession(c.env, bearerToken(c.req.header("authorization")));
    if (!user.emailVerified) throw new ApiError("EMAIL_NOT_VERIFIED", "Verify your email first: reports are answered by email.");
    c.set("reporter", { ...meta, userId: user.id, keyId: "portal" });
  }
  await next();
});

/** Mounted at /api/v1/wilayah, before the data routes: `POST /{id}/reports`. */
export const reportRoutes = new Hono<ReporterEnv>();

reportRoutes.post(
  "/:id/reports",
  doc({
    operationId: "reportWrongFact",
    tags,
    summary: "Report a wrong fact about a region",
    description: `Say which field of the region is wrong (name, parent, postal_code, coordinates, boundary, population, missing_child, other), the value you believe right and your evidence (a URL, a regulation number, free text up to 2,000 characters; at least one). Free of charge: not a metered call. At most ${REPORTS_PER_MINUTE} a minute per account and per client address, ${REPORTS_PER_DAY} a day per account. An admin reviews it; you are emailed when its status changes (GET /user/reports lists yours). Until it is decided the region's by-id answer carries \`open_reports\`.`,
    caller: "keyOrSession",
    input: "json",
    parameters: [{ in: "path", name: "id", required: true, schema: { type: "string" }, description: "The region's Kemendagri code, dots optional" }],
    ok: { status: 201, description: "The report, open", schema: reportResponse },
    errors: ["NOT_FOUND", "EMAIL_NOT_VERIFIED", "SECRET_KEY_REQUIRED", "ORIGIN_NOT_ALLOWED"],
  }),
  keyOrSession,
  ...jsonBody(reportInput),
  async (c) => c.json({ data: await fileReport(c.env, c.req.param("id"), c.req.valid("json"), c.get("reporter")) }, 201),
);

/** Mounted at /user/reports: the caller's own reports. */
export const ownReportRoutes = new Hono<ReporterEnv>();

ownReportRoutes.get(
  "/",
  doc({
    operationId: "listOwnReports",
    tags,
    summary: "Your reports and their answers",
    description: "Newest first, with status (open, accepted, rejected, duplicate) and the reviewer's answer. An API key or a session token.",
    caller: "keyOrSession",
    input: "query",
    ok: { description: "Your reports", schema: reportListResponse },
  }),
  keyOrSession,
  queryParams(ownReportsQuery),
  async (c) => {
    const { status, ...paging } = c.req.valid("query");
    return c.json(pageBody(await listOwnReports(c.env, c.get("reporter").userId, { ...paging, status })));
  },
);
