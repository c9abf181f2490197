/**
 * The API document (OpenAPI 3.1) at GET /openapi.json, generated from the routes the app
 * registers: each route's `doc()` (or, for data endpoints, its declaration) and the zod schemas its
 * validators use. Built once per isolate, on first request.
 */
import type { Hono } from "hono";
import { generateSpecs } from "hono-openapi";
import pkg from "../../package.json";
import { dataEndpoints } from "../catalogue";
import { loadExamples } from "../data/openapi";
import type { BaseEnv } from "../http/context";
import { errorBodySchema } from "../lib/errors";
import { toJsonSchema } from "../lib/json-schema";
import { webhookPayload } from "../webhooks/schemas";

const DESCRIPTION = `Indonesia's administrative regions (provinsi, kabupaten/kota, kecamatan, kelurahan/desa; Kepmendagri 300.2.2-2138/2025), BMKG weather and earthquakes, accounts, API keys, usage and QRIS billing.

- Data endpoints (\`/api/v1\`) take an API key in \`x-api-key\` (create one with \`POST /user/keys\`). The same endpoints are MCP tools at \`/mcp\`.
- Account routes take the session token from \`/auth/login\` as \`Authorization: Bearer <token>\`.
- Every response carries \`x-request-id\`; every error is \`{"error": {"code", "message", "request_id", "details"?}}\` with a stable \`code\`.
- Paging: \`page\` from 1, \`per_page\` default 20, above 100 served as 100; both plain decimal integers. A parameter given twice, or one the endpoint does not know, is 400 \`INVALID_QUERY\`.
- Any route that needs the database, a cache or the account's counter may answer 503 \`SERVICE_UNAVAILABLE\` with \`Retry-After: 2\` when one fails for a moment: nothing was counted or left half-done; send it again (guide: "When a dependency fails").
- Any route may also answer 500 \`INTERNAL_ERROR\` (our fault: quote \`request_id\`), 405 \`METHOD_NOT_ALLOWED\` for a method it does not serve (with \`Allow\`), and 404 \`NOT_FOUND\` for an unknown path.
- Guides (the rules behind the fields: errors, paging, search, billing, history, MCP): /docs/guide on this deployment.`;

const TAGS = [
  { name: "Regions", description: "Provinsi, kabupaten/kota, kecamatan, kelurahan/desa: lists, by id, search. Data: idn-area-data (ODbL)." },
  { name: "Addresses", description: "Free-text Indonesian addresses to region codes, one or up to 100 at once, with confidence and warnings." },
  { name: "Exports", description: "Bulk exports for paid plans: a level's whole dataset as CSV, JSON or GeoJSON, with its manifest and licence." },
  { name: "Weather", description: "BMKG forecasts and earthquakes (credit BMKG where you show them)." },
  { name: "Auth", description: "Registration, login, email verification, public configuration." },
  { name: "Keys", description: "Your API keys." },
  { name: "Usage", description: "Your metered calls, your request log, your alerts and spend limit." },
  {
    name: "Webhooks",
    description:
      "Your webhook endpoints: edition.published and regions.changed, signed the Standard Webhooks way (headers webhook-id, webhook-timestamp, webhook-signature; payload: the WebhookPayload schema and the `webhooks` section of this document).",
  },
  { name: "Billing", description: "Plans, QRIS top-up and subscriptions (Tripay), credits, receipts (kwitansi) and billing details." },
  { name: "Admin", description: "For administrators." },
  { name: "Health", description: "Liveness." },
];

/** What we POST to your webhook endpoints (OpenAPI 3.1 `webhooks`): one entry per event type, the same body and headers. */
const WEBHOOKS = Object.fromEntries(
  [
    ["edition.published", "A new edition of the region code list is current: its counts of changes, the first 50, and a link to the rest."],
    ["regions.changed", "The changes of a new edition within your endpoint's region prefixes (sent only when some match)."],
    ["webhook.test", "Sent by POST /user/webhooks/{id}/test."],
  ].map(([event, description]) => [
    event,
    {
      post: {
        summary: event,
        description: `${description} Answer 2xx within 10 s; anything else is retried for about 35 hours (docs/api.md, Webhooks).`,
        parameters: [
          { in: "header", name: "webhook-id", required: true, schema: { type: "string" }, description: "The same on every retry: dedupe on it" },
          { in: "header", name: "webhook-timestamp", required: true, schema: { type: "string" }, description: "Unix seconds" },
          { in: "header", name: "webhook-signature", required: true, schema: { type: "string" }, description: "`v1,<base64 HMAC-SHA256>`" },
        ],
        requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/WebhookPayload" } } } },
        responses: { "200": { description: "Received (any 2xx)" } },
      },
    },
  ]),
);

let cached: { key: string; doc: unknown } | undefined;

export async function apiDocument(app: Hono<BaseEnv>, env: Env, requestOrigin: string): Promise<unknown> {
  const deployed = env.PUBLIC_API_URL || requestOrigin;
  const key = deployed;
  if (cached?.key === key) return cached.doc;
  // Example answers come from the loaded data; a documentation request is no caller's call.
  await loadExamples(dataEndpoints, { env, principal: { keyId: "", userId: "", plan: "internal" }, requestId: "openapi", waitUntil: () => {} });
  const servers = [{ url: deployed, description: "This deployment" }];
  if (!deployed.startsWith("http://localhost:8787")) servers.push({ url: "http://localhost:8787", description: "Local (npm run dev)" });
  const doc = await generateSpecs(app, {
    defaultValidationErrorResponse: false,
    exclude: ["/openapi.json", "/docs", /^\/docs\//, /^\/(site|portal)\/assets\//],
    // The Atom feed's path ends in ".atom": documented (hono-openapi would take it for a static file).
    excludeStaticFile: false,
    documentation: {
      openapi: "3.1.0",
      info: { title: "Wilayah API", version: pkg.version, description: DESCRIPTION },
      servers,
      tags: TAGS,
      webhooks: WEBHOOKS as never,
      components: {
        schemas: { Error: toJsonSchema(errorBodySchema, "output") as never, WebhookPayload: toJsonSchema(webhookPayload, "output") as never },
        securitySchemes: {
          apiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "An API key (`wk_live_...`) from POST /user/keys." },
          bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The session token from POST /auth/login or /auth/register (7 days)." },
          tripaySignature: {
            type: "apiKey",
            in: "header",
            name: "X-Callback-Signature",
            description:
              "Tripay's callback signature: hex HMAC-SHA256 of the raw request body, keyed with the merchant private key. OpenAPI has no HMAC scheme; this is it.",
          },
        },
        headers: {
          RequestId: { description: "The request's id; error bodies repeat it as `error.request_id`.", schema: { type: "string" } },
          RetryAfter: { description: "Seconds to wait before trying again.", schema: { type: "integer" } },
          DataVersion: { description: "The regulation (and package) the data follows, or the upstream source.", schema: { type: "string" } },
          Cache: {
            description:
              "`HIT` or `MISS` of the edge response cache. Shared by every caller, except for the address endpoints: their answers are cached per account (keyed by a digest of the text), so a `HIT` there only means your own account asked the same before.",
            schema: { type: "string", enum: ["HIT", "MISS"] },
          },
          WebhookId: {
            description: "Webhooks we send: the message id (`msg_...`), the same on every retry and redelivery of one message: dedupe on it.",
            schema: { type: "string" },
          },
          WebhookTimestamp: {
            description: "Webhooks we send: when this attempt was signed (Unix seconds); refuse old ones (Standard Webhooks: 5 minutes).",
            schema: { type: "string" },
          },
          WebhookSignature: {
            description:
              "Webhooks we send: `v1,` and the base64 HMAC-SHA256, keyed with the base64-decoded part of your `whsec_` secret, of `{webhook-id}.{webhook-timestamp}.{body}`. Verify with the `standardwebhooks` package (docs/api.md, Webhooks).",
            schema: { type: "string" },
          },
          ContentDisposition: {
            description: "`attachment` with the file name to save the download under (it names the level and the data version).",
            schema: { type: "string" },
          },
        },
      },
    },
  });
  // A parameter with a suffix (/tiles/{z}/{x}/{y}.mvt) is a regex route in Hono (`:y{[^/]+\.mvt}`),
  // which the generator writes as is, with a parameter of its own named after the pattern: written
  // as OpenAPI spells it, the route's own documented parameters kept.
  type Ops = Record<string, { parameters?: { name: string }[] }>;
  const paths = (doc as { paths?: Record<string, Ops> }).paths ?? {};
  for (const ops of Object.values(paths)) {
    for (const op of Object.values(ops)) if (op.parameters) op.parameters = op.parameters.filter((p) => !/[{}]/.test(p.name));
  }
  (doc as { paths?: Record<string, Ops> }).paths = Object.fromEntries(
    Object.entries(paths).map(([path, ops]) => [path.replaceAll(/\{(\w+)\{.*?\\\.(\w+)\}/g, "{$1}.$2"), ops]),
  );
  cached = { key, doc };
  return doc;
}
