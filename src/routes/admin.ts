import { Hono } from "hono";
import { z } from "zod";
import {
  adminUserDetailResponse,
  adminUserResponse,
  adminUsersResponse,
  balanceResponse,
  creditGrantInput,
  grantedSubscriptionResponse,
  statsResponse,
  subscriptionGrantInput,
  userPatchInput,
} from "../admin/schemas";
import { adminGrantCredits, adminGrantSubscription, getUser, listUsers, overallStats, patchUser } from "../admin/service";
import { AUDIT_EVENTS, auditListResponse } from "../audit/schemas";
import { listAuditEvents } from "../audit/service";
import { requireAdmin, requireUser } from "../gate";
import { pageBody } from "../http/answer";
import { type BaseEnv, requestMeta } from "../http/context";
import { doc } from "../http/docs";
import { jsonBody, queryParams } from "../http/validate";
import { pageParams } from "../lib/paging";
import { adminReportListResponse, adminReportResponse, adminReportsQuery, reviewInput } from "../reports/schemas";
import { reportQueuePage, reviewReport } from "../reports/service";

/** Mounted at /admin: bearer token of an admin (checked per route, so unknown paths stay 404). */
export const adminRoutes = new Hono<BaseEnv>();
const admin = [requireUser, requireAdmin] as const;
const tags = ["Admin"];
/** The acting admin, for the audit trail. */
const actor = (c: { get(k: "user"): { id: string }; get(k: "requestId"): string; req: { header(n: string): string | undefined } }) => ({
  id: c.get("user").id,
  ...requestMeta(c),
});
const userId = [{ in: "path", name: "id", required: true, schema: { type: "string" }, description: "The user's id (`user_...`)" }];

adminRoutes.get(
  "/users",
  doc({
    operationId: "adminListUsers",
    tags,
    summary: "List and search users",
    description: "Oldest first; `q` matches email or name (contains).",
    caller: "admin",
    input: "query",
    ok: { description: "Users", schema: adminUsersResponse },
  }),
  ...admin,
  queryParams(z.strictObject({ q: z.string().max(100).optional().describe("Email or name contains this"), ...pageParams })),
  async (c) => c.json(pageBody(await listUsers(c.env, c.req.valid("query")))),
);

adminRoutes.get(
  "/users/:id",
  doc({
    operationId: "adminGetUser",
    tags,
    summary: "One user, with keys and this month's usage",
    caller: "admin",
    parameters: userId,
    ok: { description: "The user", schema: adminUserDetailResponse },
    errors: ["NOT_FOUND"],
  }),
  ...admin,
  async (c) => c.json({ data: await getUser(c.env, c.req.param("id")) }),
);

adminRoutes.patch(
  "/users/:id",
  doc({
    operationId: "adminUpdateUser",
    tags,
    summary: "Suspend, reinstate, or change admin rights",
    description:
      "Applies at once: a suspended user's keys and sessions stop working on their next request. Suspension and the loss of admin rights end every session of the user (reinstating revives none). The last active admin cannot demote or suspend themselves (409 `LAST_ADMIN`).",
    caller: "admin",
    input: "json",
    parameters: userId,
    ok: { description: "The user after the change", schema: adminUserResponse },
    errors: ["NOT_FOUND", "LAST_ADMIN"],
  }),
  ...admin,
  ...jsonBody(userPatchInput),
  async (c) => c.json({ data: await patchUser(c.env, c.req.param("id"), c.req.valid("json"), actor(c)) }),
);

adminRoutes.get(
  "/stats",
  doc({
    operationId: "adminGetStats",
    tags,
    summary: "Overall numbers",
    description: "Users, active keys and this month's flushed calls.",
    caller: "admin",
    ok: { description: "The numbers", schema: statsResponse },
  }),
  ...admin,
  async (c) => c.json({ data: await overallStats(c.env) }),
);

adminRoutes.post(
  "/users/:id/credits",
  doc({
    operationId: "adminGrantCredits",
    tags,
    summary: "Grant or take credits",
    description: "A positive amount grants, a negative one takes (never below a zero balance); the reason goes into the ledger.",
    caller: "admin",
    input: "json",
    parameters: userId,
    ok: { status: 201, description: "The new balance", schema: balanceResponse },
    errors: ["NOT_FOUND"],
  }),
  ...admin,
  ...jsonBody(creditGrantInput),
  async (c) => {
    const { amount, reason } = c.req.valid("json");
    return c.json({ data: { balance: await adminGrantCredits(c.env, c.req.param("id"), amount, reason, actor(c)) } }, 201);
  },
);

adminRoutes.post(
  "/users/:id/subscription",
  doc({
    operationId: "adminGrantSubscription",
    tags,
    summary: "Grant a subscription",
    description: "Any plan (including `internal`), for 1 to 36 months from now.",
    caller: "admin",
    input: "json",
    parameters: userId,
    ok: { status: 201, description: "The granted period", schema: grantedSubscriptionResponse },
    errors: ["NOT_FOUND"],
  }),
  ...admin,
  ...jsonBody(subscriptionGrantInput),
  async (c) => {
    const { plan_id, months } = c.req.valid("json");
    return c.json({ data: await adminGrantSubscription(c.env, c.req.param("id"), plan_id, months, actor(c)) }, 201);
  },
);

adminRoutes.get(
  "/audit",
  doc({
    operationId: "adminListAudit",
    tags,
    summary: "The security audit trail",
    description:
      "Newest first, paged. `user_id` keeps the events an account is the subject or the actor of; `event` one kind. Events: logins (succeeded, failed, locked), logouts, password changes, reset requests and resets, takeovers, replaced stale accounts, email verification, keys created and revoked, admins' changes of users, credits and subscriptions, refunds. Each has its time, actor, subject, client IP and request id; never a secret or a password.",
    caller: "admin",
    input: "query",
    ok: { description: "Events", schema: auditListResponse },
  }),
  ...admin,
  queryParams(
    z.strictObject({
      user_id: z.string().max(64).optional().describe("Events whose subject or actor is this user"),
      event: z.enum(AUDIT_EVENTS).optional().describe("One kind of event"),
      ...pageParams,
    }),
  ),
  async (c) => {
    const { user_id, event, ...paging } = c.req.valid("query");
    return c.json(pageBody(await listAuditEvents(c.env, { userId: user_id, event }, paging)));
  },
);

adminRoutes.get(
  "/reports",
  doc({
    operationId: "adminListReports",
    tags,
    summary: "The queue of reported wrong facts",
    description:
      "Oldest first (the longest waiting on top); filtered by status, field and region. Each report lists in `same` the other reports of the same region, field and value (compared without case and spacing): decide one, mark the others duplicates.",
    caller: "admin",
    input: "query",
    ok: { description: "Reports", schema: adminReportListResponse },
  }),
  ...admin,
  queryParams(adminReportsQuery),
  async (c) => {
    const { status, field, region_id, ...paging } = c.req.valid("query");
    return c.json(pageBody(await reportQueuePage(c.env, { status, field, region_id }, paging)));
  },
);

adminRoutes.patch(
  "/reports/:id",
  doc({
    operationId: "adminReviewReport",
    tags,
    summary: "Accept, reject, or mark a report a duplicate",
    description:
      "Once per report (409 `REPORT_CLOSED` after): `accepted` with the answer, the basis the correction cites and optionally the value to apply (a postal code is 5 digits of a kelurahan/desa, coordinates `lat,lng` inside Indonesia: checked now, as the seed build applies them); `rejected` with the answer; `duplicate` with the report it repeats. The reporter is emailed; the decision is audited. Accepted reports reach the data with `npm run corrections:pull` and the next seed build.",
    caller: "admin",
    input: "json",
    parameters: [{ in: "path", name: "id", required: true, schema: { type: "string" }, description: "The report's id (`rpt_...`)" }],
    ok: { description: "The report after the decision", schema: adminReportResponse },
    errors: ["NOT_FOUND", "REPORT_CLOSED"],
  }),
  ...admin,
  ...jsonBody(reviewInput),
  async (c) => c.json({ data: await reviewReport(c.env, c.req.param("id"), c.req.valid("json"), actor(c)) }),
);
