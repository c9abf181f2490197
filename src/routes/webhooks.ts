import { Hono } from "hono";
import { requireUser } from "../gate";
import { pageBody } from "../http/answer";
import type { BaseEnv } from "../http/context";
import { doc } from "../http/docs";
import { jsonBody, queryParams } from "../http/validate";
import {
  createEndpointInput,
  deliveryListResponse,
  deliveryPaging,
  deliveryResponse,
  endpointListResponse,
  endpointResponse,
  endpointWithSecretResponse,
  updateEndpointInput,
} from "../webhooks/schemas";
import {
  changeEndpoint,
  createEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  MAX_ENDPOINTS,
  redeliver,
  removeEndpoint,
  rollSecret,
  sendTestEvent,
} from "../webhooks/service";

/** Mounted at /user/webhooks: the signed-in developer's webhook endpoints (docs/api.md, "Webhooks"). Auth is per route, as /user/keys. */
export const webhookRoutes = new Hono<BaseEnv>();
const tags = ["Webhooks"];
const idParam = { in: "path", name: "id", required: true, schema: { type: "string" }, description: "The endpoint's id (`wh_...`)" };

webhookRoutes.get(
  "/",
  doc({
    operationId: "listWebhooks",
    tags,
    summary: "List your webhook endpoints",
    description: "Newest first. Signing secrets are never shown again.",
    caller: "bearer",
    ok: { description: "Your endpoints", schema: endpointListResponse },
  }),
  requireUser,
  async (c) => c.json({ data: await listEndpoints(c.env, c.get("user").id) }),
);

webhookRoutes.post(
  "/",
  doc({
    operationId: "createWebhook",
    tags,
    summary: "Add a webhook endpoint",
    description: `Needs a verified email. The signing secret (\`whsec_...\`) is in this answer only. At most ${MAX_ENDPOINTS} endpoints per account. The URL must be https and must not name a private, loopback or link-local address.`,
    caller: "bearer",
    input: "json",
    ok: { status: 201, description: "Created; `secret` signs its deliveries", schema: endpointWithSecretResponse },
    errors: ["EMAIL_NOT_VERIFIED", "WEBHOOK_LIMIT_REACHED", "RATE_LIMITED"],
  }),
  requireUser,
  ...jsonBody(createEndpointInput),
  async (c) => c.json({ data: await createEndpoint(c.env, c.get("user"), c.req.valid("json")) }, 201),
);

webhookRoutes.get(
  "/:id",
  doc({
    operationId: "getWebhook",
    tags,
    summary: "One webhook endpoint",
    caller: "bearer",
    parameters: [idParam],
    ok: { description: "The endpoint", schema: endpointResponse },
    errors: ["NOT_FOUND"],
  }),
  requireUser,
  async (c) => c.json({ data: await getEndpoint(c.env, c.get("user").id, c.req.param("id")) }),
);

webhookRoutes.patch(
  "/:id",
  doc({
    operationId: "updateWebhook",
    tags,
    summary: "Change a webhook endpoint",
    description: "Any of url, events, regions, enabled. Enabling an endpoint we disabled clears its reason and its run of failures.",
    caller: "bearer",
    input: "json",
    parameters: [idParam],
    ok: { description: "The endpoint as changed", schema: endpointResponse },
    errors: ["NOT_FOUND"],
  }),
  requireUser,
  ...jsonBody(updateEndpointInput),
  async (c) => c.json({ data: await changeEndpoint(c.env, c.get("user").id, c.req.param("id"), c.req.valid("json")) }),
);

webhookRoutes.delete(
  "/:id",
  doc({
    operationId: "deleteWebhook",
    tags,
    summary: "Delete a webhook endpoint",
    description: "With its delivery log; deliveries still queued are dropped.",
    caller: "bearer",
    parameters: [idParam],
    ok: { description: "The deleted endpoint", schema: endpointResponse },
    errors: ["NOT_FOUND"],
  }),
  requireUser,
  async (c) => c.json({ data: await removeEndpoint(c.env, c.get("user").id, c.req.param("id")) }),
);

webhookRoutes.post(
  "/:id/roll-secret",
  doc({
    operationId: "rollWebhookSecret",
    tags,
    summary: "Replace the signing secret",
    description: "The new secret is in this answer only and signs every attempt from now on (retries of earlier messages too).",
    caller: "bearer",
    parameters: [idParam],
    ok: { description: "The endpoint with its new `secret`", schema: endpointWithSecretResponse },
    errors: ["NOT_FOUND", "RATE_LIMITED"],
  }),
  requireUser,
  async (c) => c.json({ data: await rollSecret(c.env, c.get("user").id, c.req.param("id")) }),
);

webhookRoutes.post(
  "/:id/test",
  doc({
    operationId: "testWebhook",
    tags,
    summary: "Send a test event",
    description: "Queues a `webhook.test` delivery (also to a disabled endpoint); follow it in the delivery log.",
    caller: "bearer",
    parameters: [idParam],
    ok: { status: 201, description: "The queued delivery", schema: deliveryResponse },
    errors: ["NOT_FOUND", "RATE_LIMITED"],
  }),
  requireUser,
  async (c) => c.json({ data: await sendTestEvent(c.env, c.get("user").id, c.req.param("id")) }, 201),
);

webhookRoutes.get(
  "/:id/deliveries",
  doc({
    operationId: "listWebhookDeliveries",
    tags,
    summary: "The delivery log of an endpoint",
    description: "Newest first, paged, each delivery with every attempt (time, status code or error, latency).",
    caller: "bearer",
    input: "query",
    parameters: [idParam],
    ok: { description: "Deliveries", schema: deliveryListResponse },
    errors: ["NOT_FOUND"],
  }),
  requireUser,
  queryParams(deliveryPaging),
  async (c) => c.json(pageBody(await listDeliveries(c.env, c.get("user").id, c.req.param("id"), c.req.valid("query")))),
);

webhookRoutes.post(
  "/:id/deliveries/:deliveryId/redeliver",
  doc({
    operationId: "redeliverWebhook",
    tags,
    summary: "Send a delivery again",
    description: "The same message (the same `webhook-id`), queued again with a fresh retry schedule, also to a disabled endpoint.",
    caller: "bearer",
    parameters: [idParam, { in: "path", name: "deliveryId", required: true, schema: { type: "string" }, description: "The delivery's id (`msg_...`)" }],
    ok: { description: "The delivery, queued again", schema: deliveryResponse },
    errors: ["NOT_FOUND", "RATE_LIMITED"],
  }),
  requireUser,
  async (c) => c.json({ data: await redeliver(c.env, c.get("user").id, c.req.param("id"), c.req.param("deliveryId")) }),
);
