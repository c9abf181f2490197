import { zValidator } from "@hono/zod-validator";
import type { ZodType } from "zod";
import { ApiError, issuesToDetails } from "./errors";

/** JSON body validation: malformed fields are 400 VALIDATION_ERROR with details (bad JSON is INVALID_JSON, in onError). */
export const jsonBody = <T extends ZodType>(schema: T) =>
  zValidator("json", schema, (result) => {
    if (!result.success) {
      const details = issuesToDetails(result.error.issues);
      throw new ApiError("VALIDATION_ERROR", `Invalid request body: ${details.map((d) => `${d.path}: ${d.message}`).join("; ")}`, { details });
    }
  });

/** Query validation for account and admin routes: 400 INVALID_QUERY with details. */
export const queryParams = <T extends ZodType>(schema: T) =>
  zValidator("query", schema, (result) => {
    if (!result.success) {
      const details = issuesToDetails(result.error.issues);
      throw new ApiError("INVALID_QUERY", `Invalid parameters: ${details.map((d) => `${d.path}: ${d.message}`).join("; ")}`, { details });
    }
  });
