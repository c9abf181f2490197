/**
 * A data endpoint is declared once: its REST path, its input schema (path params + query), its
 * output schema and its handler. `mountRest` turns the declarations into Hono routes and the MCP
 * surface turns the same declarations into tools, so every data endpoint is a tool by construction.
 */
import { z } from "zod";
import type { Principal } from "./types";

export type DataContext = {
  env: Env;
  principal: Principal;
  waitUntil(promise: Promise<unknown>): void;
};

export type DataEndpoint<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> = {
  /** Path under /api/v1, Hono syntax (`/wilayah/provinsi/:id`). */
  path: string;
  /** The MCP tool name, or null for REST-only routes (by-id routes are served by `wilayah_detail`). */
  tool: string | null;
  /** One paragraph an agent (and the API docs) can act on. */
  description: string;
  /** Path params and query params, validated together; unknown parameters are refused. */
  input: I;
  output: O;
  /** Answers are identical for every caller and may be cached for this many seconds. */
  cacheSeconds: number;
  /** Value of the x-data-version header / cache namespace; changes invalidate the cache. */
  version: string;
  handler(input: z.infer<I>, ctx: DataContext): Promise<z.infer<O>>;
};

export function defineEndpoint<I extends z.ZodObject, O extends z.ZodType>(e: DataEndpoint<I, O>): DataEndpoint<I, O> {
  return e;
}

// ---------------------------------------------------------------- shared input pieces

/** Query strings carry text; MCP arguments carry JSON numbers. Both are accepted. */
export const pageParams = {
  page: z.coerce.number({ error: "page must be a positive integer" }).int("page must be a positive integer").positive("page must be a positive integer").default(1).describe("Page number, from 1."),
  per_page: z.coerce
    .number({ error: "per_page must be a positive integer" })
    .int("per_page must be a positive integer")
    .positive("per_page must be a positive integer")
    .default(20)
    .describe("Page size, default 20; values above 100 are treated as 100."),
};

export const MAX_PER_PAGE = 100;

/** Boolean flag: `1`/`true`/`0`/`false` in a query string, or a JSON boolean. */
export const flagParam = z
  .union([z.boolean(), z.enum(["1", "0", "true", "false"])])
  .optional()
  .transform((v) => v === true || v === "1" || v === "true");

export const pageMeta = z.object({
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
  total_pages: z.number().int(),
});
export type PageMeta = z.infer<typeof pageMeta>;

export function makeMeta(total: number, page: number, perPage: number): PageMeta {
  return { total, page, per_page: perPage, total_pages: Math.ceil(total / perPage) };
}
