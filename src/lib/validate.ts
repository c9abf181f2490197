import { zValidator } from "@hono/zod-validator";
import type { ZodType } from "zod";
import { type ErrorCode, validationError } from "./errors";

function validator<T extends ZodType>(target: "json" | "query", code: ErrorCode, what: string, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw validationError(code, what, result.error.issues);
  });
}

/** JSON body validation: malformed fields are 400 VALIDATION_ERROR with details (bad JSON is INVALID_JSON, in onError). */
export const jsonBody = <T extends ZodType>(schema: T) => validator("json", "VALIDATION_ERROR", "request body", schema);

/** Query validation for account and admin routes: 400 INVALID_QUERY with details. */
export const queryParams = <T extends ZodType>(schema: T) => validator("query", "INVALID_QUERY", "parameters", schema);
