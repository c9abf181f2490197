import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { CallEnv } from "../data/context";
import { type Caller, gate, PORTAL_KEY_ID } from "../gate";
import { pageBody } from "../http/answer";
import { type BaseEnv, requestMeta } from "../http/context";
import { doc } from "../http/docs";
import { jsonBody, queryParams } from "../http/validate";
import { ApiError } from "../lib/errors";
import { ownReportsQuery, reportInput, reportListResponse, reportResponse } from "../reports/schemas";
import { fileReport, listOwnReports, REPORTS_PER_DAY, REPORTS_PER_MINUTE, type Reporter } from "../reports/service";

/** Who is reporting: set by `reporter` from the gate's caller. */
type ReporterEnv = { Bindings: Env; Variables: BaseEnv["Variables"] & Partial<CallEnv["Variables"]> & { caller: Caller; reporter: Reporter } };

const tags = ["Reports"];

/**
 * A secret API key (`x-api-key`, as data calls send it; a publishable key is refused) or a
 * session token (`Authorization: Bearer`, as the account routes take it), decided by the gate;
 * neither is metered (the account's request rate applies). A session's account must have verified
 * its email, as it must to hold a key.
 */
const keyOrSession = gate<ReporterEnv>({ callers: ["secretKey", "session"], tag: tags[0] });

const reporter = createMiddleware<ReporterEnv>(async (c, next) => {
  const meta = requestMeta(c);
  const caller = c.get("caller");
  if (caller.kind === "secretKey" || caller.kind === "publishableKey") {
    c.set("reporter", { ...meta, userId: caller.principal.userId, keyId: caller.principal.keyId });
  } else if (caller.kind === "session") {
    if (!caller.user.emailVerified) throw new ApiError("EMAIL_NOT_VERIFIED", "Verify your email first: reports are answered by email.");
    c.set("reporter", { ...meta, userId: caller.user.id, keyId: PORTAL_KEY_ID });
  } else throw new ApiError("MISSING_API_KEY", "Send an API key (x-api-key) or a session token (Authorization: Bearer).");
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
  reporter,
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
  reporter,
  queryParams(ownReportsQuery),
  async (c) => {
    const { status, ...paging } = c.req.valid("query");
    return c.json(pageBody(await listOwnReports(c.env, c.get("reporter").userId, { ...paging, status })));
  },
);
