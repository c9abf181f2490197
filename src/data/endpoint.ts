/**
 * A data endpoint is declared once: its REST path and method, its input schema (path params + query
 * for GET, path params + the JSON body for POST), its output schema and its handler. `mountDataEndpoints` (rest.ts) turns the declarations into Hono
 * routes and the MCP surface (src/mcp) turns the same declarations into tools, so every data
 * endpoint is a tool by construction. src/catalogue.ts lists every declaration.
 */
import { z } from "zod";
import type { ErrorCode } from "../lib/errors";
import type { DataContext } from "./context";

export type DataEndpoint<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> = {
  /** Path under /api/v1, Hono syntax (`/wilayah/provinsi/:id`). */
  path: string;
  /** The MCP tool name, or null for REST-only routes (by-id routes are served by `wilayah_detail`). */
  tool: string | null;
  /** One paragraph an agent (and the API docs) can act on. */
  description: string;
  /** GET (the default): path params and query params; POST: path params and the JSON body's fields. Validated together; unknown parameters are refused. */
  input: I;
  /** GET (default) or POST (input in a JSON body: for batches and for values that must not travel in a URL). */
  method?: "GET" | "POST";
  /** How many metered calls one request is (a batch: one per item); default 1. Admission takes them all or refuses the request whole. */
  calls?(input: z.infer<I>): number;
  output: O;
  /** Answers are identical for every caller and may be cached for this many seconds. */
  cacheSeconds: number;
  /** Value of the x-data-version header / cache namespace; changes invalidate the cache. */
  version: string;
  handler(input: z.infer<I>, ctx: DataContext): Promise<z.infer<O>>;
  /** The API document's grouping (default "Regions"). */
  tag?: string;
  /** Codes this endpoint answers beyond every data call's (key, quota, rate, INVALID_QUERY). */
  errors?: ErrorCode[];
  /** A real request for the API document (query and path parameters, or the body of a POST); its answer is computed from the loaded data when the document is built, so it is never stale. */
  example?: Record<string, unknown>;
};

export function defineEndpoint<I extends z.ZodObject, O extends z.ZodType>(e: DataEndpoint<I, O>): DataEndpoint<I, O> {
  return e;
}

/** Boolean flag: `1`/`true`/`0`/`false` in a query string, or a JSON boolean. */
export const flagParam = z
  .union([z.boolean(), z.enum(["1", "0", "true", "false"])])
  .optional()
  .transform((v) => v === true || v === "1" || v === "true");
