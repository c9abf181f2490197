import { zValidator } from "@hono/zod-validator";
import type { Env as HonoEnv } from "hono";
import { createMiddleware } from "hono/factory";
import { uniqueSymbol } from "hono-openapi";
import type { ZodType, z } from "zod";
import { ApiError, validationError } from "../lib/errors";
import { toJsonSchema } from "../lib/json-schema";
import { readJsonBody } from "./body";
import { typedQuery } from "./query";

/** Marks a validator so the API document shows what it validates (hono-openapi reads the mark). */
function documented<M extends object>(middleware: M, target: "json" | "query", schema: ZodType): M {
  return Object.assign(middleware, { [uniqueSymbol]: { target, toOpenAPISchema: async () => ({ schema: toJsonSchema(schema, "input") }) } });
}

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** A JSON route refuses other content types (415) instead of reading their body as `{}`. */
export const requireJsonContentType = createMiddleware(async (c, next) => {
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0].trim();
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw new ApiError(
      "UNSUPPORTED_MEDIA_TYPE",
      `Send the body as JSON with Content-Type: application/json${mediaType ? ` (got ${mediaType.slice(0, 100)})` : ""}.`,
    );
  }
  await next();
});

/**
 * JSON body validation: another content type is 415 UNSUPPORTED_MEDIA_TYPE, bad JSON 400
 * INVALID_JSON (body.ts), malformed fields 400 VALIDATION_ERROR with details.
 */
export const jsonBody = <T extends ZodType>(schema: T) =>
  [
    requireJsonContentType,
    documented(
      createMiddleware<HonoEnv, string, { in: { json: z.input<T> }; out: { json: z.output<T> } }>(async (c, next) => {
        const result = await schema.safeParseAsync(await readJsonBody(c.req));
        if (!result.success) throw validationError("VALIDATION_ERROR", "request body", result.error.issues);
        c.req.addValidatedData("json", result.data as object);
        await next();
      }),
      "json",
      schema,
    ),
  ] as const;

/** Query validation for account and admin routes: integers as plain decimals, no repeats; 400 INVALID_QUERY with details. */
export const queryParams = <T extends ZodType>(schema: T) =>
  documented(
    zValidator(
      "query",
      schema,
      (result) => {
        if (!result.success) throw validationError("INVALID_QUERY", "parameters", result.error.issues);
      },
      { validationFunction: (s, value) => s.safeParseAsync(typedQuery(s, value as Record<string, string | string[]>)) as never },
    ),
    "query",
    schema,
  );
