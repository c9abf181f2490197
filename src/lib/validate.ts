import { zValidator } from "@hono/zod-validator";
import type { ZodType } from "zod";
import { validationError } from "./errors";
import { typedQuery } from "./query";

/** JSON body validation: malformed fields are 400 VALIDATION_ERROR with details (bad JSON is INVALID_JSON, in the error handler). */
export const jsonBody = <T extends ZodType>(schema: T) =>
  zValidator("json", schema, (result) => {
    if (!result.success) throw validationError("VALIDATION_ERROR", "request body", result.error.issues);
  });

/** Query validation for account and admin routes: integers as plain decimals, no repeats; 400 INVALID_QUERY with details. */
export const queryParams = <T extends ZodType>(schema: T) =>
  zValidator(
    "query",
    schema,
    (result) => {
      if (!result.success) throw validationError("INVALID_QUERY", "parameters", result.error.issues);
    },
    { validationFunction: (s, value) => s.safeParseAsync(typedQuery(s, value as Record<string, string | string[]>)) as never },
  );
