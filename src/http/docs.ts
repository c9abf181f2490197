/**
 * Route documentation, next to the route it documents: `doc({...})` is a no-op middleware carrying
 * the OpenAPI operation (hono-openapi's describeRoute), so the document is generated from the
 * registered routes and the zod schemas that validate their input and describe their output.
 * Error responses come from the route's kind of caller and input plus its own codes, each with the
 * contract's error body, so every documented code is one the route can answer.
 */
import { describeRoute } from "hono-openapi";
import type { z } from "zod";
import { ERROR_STATUS, type ErrorCode } from "../lib/errors";
import { type JsonSchema, toJsonSchema } from "../lib/json-schema";

/** `keyOrSession`: an API key (`x-api-key`) or a session token (`Authorization: Bearer`), either one; not metered. */
export type Caller = "none" | "apiKey" | "bearer" | "keyOrSession" | "admin" | "webhook";

/** Codes every route of a kind of caller or input can answer. */
const CALLER_ERRORS: Record<Caller, ErrorCode[]> = {
  none: [],
  apiKey: ["MISSING_API_KEY", "INVALID_API_KEY", "ACCOUNT_SUSPENDED", "QUOTA_EXCEEDED", "SPEND_LIMIT_REACHED", "RATE_LIMITED"],
  bearer: ["MISSING_TOKEN", "UNAUTHORIZED", "INVALID_TOKEN", "ACCOUNT_SUSPENDED"],
  keyOrSession: ["MISSING_API_KEY", "INVALID_API_KEY", "UNAUTHORIZED", "INVALID_TOKEN", "ACCOUNT_SUSPENDED", "RATE_LIMITED"],
  admin: ["MISSING_TOKEN", "UNAUTHORIZED", "INVALID_TOKEN", "ACCOUNT_SUSPENDED", "FORBIDDEN"],
  webhook: ["INVALID_SIGNATURE"],
};
const INPUT_ERRORS: Record<"json" | "query", ErrorCode[]> = {
  json: ["INVALID_JSON", "VALIDATION_ERROR", "UNSUPPORTED_MEDIA_TYPE", "PAYLOAD_TOO_LARGE"],
  query: ["INVALID_QUERY"],
};

const SECURITY: Record<Caller, Record<string, string[]>[]> = {
  none: [],
  apiKey: [{ apiKey: [] }],
  bearer: [{ bearer: [] }],
  keyOrSession: [{ apiKey: [] }, { bearer: [] }],
  admin: [{ bearer: [] }],
  webhook: [{ tripaySignature: [] }],
};

const ref = (kind: "headers" | "schemas", name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** Error responses for a set of codes: one per status, listing its codes, with the error body and an example per code. */
export function errorResponses(codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) byStatus.set(ERROR_STATUS[code], [...(byStatus.get(ERROR_STATUS[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      {
        description: `Error: ${list.map((c) => `\`${c}\``).join(", ")}`,
        headers: { "x-request-id": ref("headers", "RequestId"), ...(status === 429 ? { "retry-after": ref("headers", "RetryAfter") } : {}) },
        content: {
          "application/json": {
            schema: ref("schemas", "Error"),
            examples: Object.fromEntries(
              list.map((code) => [code, { value: { error: { code, message: "…", request_id: "8f2c1e0a-4b7d-4f3e-9a61-2d5c7b9e0f14" } } }]),
            ),
          },
        },
      },
    ]),
  );
}

export type SuccessDoc = {
  status?: 200 | 201 | 202 | 302 | 303;
  description: string;
  schema?: z.ZodType;
  /** A file answer instead of JSON: each media type it may have, with what it holds. */
  media?: Record<string, string>;
  example?: unknown;
  headers?: Record<string, unknown>;
};

export type DocOptions = {
  /**
   * The operation's name in the API document, and so the SDK function's name (camelCase; the
   * Python SDK turns it into snake_case). Required: a name the generators invent from the path is
   * unreadable, and renaming later breaks SDK users. docs/api.md "SDKs" gives the naming rule.
   */
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  caller: Caller;
  input?: "json" | "query";
  ok: SuccessDoc;
  errors?: ErrorCode[];
  parameters?: unknown[];
  /** A body read by the handler itself (not by a jsonBody validator), e.g. the webhook's raw body. */
  body?: { schema: z.ZodType; description: string; example?: unknown };
};

export function operation(o: DocOptions) {
  const status = o.ok.status ?? 200;
  const content = o.ok.media
    ? Object.fromEntries(
        Object.entries(o.ok.media).map(([type, about]) => [type, { schema: { type: /[/+]json$/.test(type) ? "object" : "string", description: about } }]),
      )
    : o.ok.schema
      ? { "application/json": { schema: toJsonSchema(o.ok.schema, "output") as JsonSchema, ...(o.ok.example !== undefined ? { example: o.ok.example } : {}) } }
      : undefined;
  return {
    operationId: o.operationId,
    tags: o.tags,
    summary: o.summary,
    ...(o.description ? { description: o.description } : {}),
    security: SECURITY[o.caller],
    ...(o.parameters ? { parameters: o.parameters } : {}),
    ...(o.body
      ? {
          requestBody: {
            required: true,
            description: o.body.description,
            content: {
              "application/json": { schema: toJsonSchema(o.body.schema, "input"), ...(o.body.example !== undefined ? { example: o.body.example } : {}) },
            },
          },
        }
      : {}),
    responses: {
      [String(status)]: {
        description: o.ok.description,
        headers: { "x-request-id": ref("headers", "RequestId"), ...o.ok.headers },
        ...(content ? { content } : {}),
      },
      ...errorResponses([...CALLER_ERRORS[o.caller], ...(o.input ? INPUT_ERRORS[o.input] : []), ...(o.errors ?? [])]),
    },
  };
}

/**
 * An operation built only when the document is first generated (hono-openapi spreads it then), so
 * converting schemas costs nothing at a cold start or on a request.
 */
export function lazyOperation(make: () => Record<string, unknown>): Parameters<typeof describeRoute>[0] {
  let built: Record<string, unknown> | undefined;
  const get = () => (built ??= make());
  return new Proxy({} as Record<string, unknown>, {
    get: (_, k) => get()[k as string],
    has: (_, k) => k in get(),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_, k) => Object.getOwnPropertyDescriptor(get(), k),
  }) as never;
}

/** The documentation of one route, as a middleware to put before its handler. */
export const doc = (o: DocOptions) => describeRoute(lazyOperation(() => operation(o)));
