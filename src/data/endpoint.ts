/**
 * A data endpoint is declared once: its REST path and method, its input schema (path params + query
 * for GET, path params + the JSON body for POST), its output schema and its handler. `dataRoutes` (rest.ts) turns the declarations into Hono
 * routes and the MCP surface (src/mcp) turns the same declarations into tools, so every JSON data
 * endpoint is a tool by construction. A file endpoint (bulk exports) answers a stream instead of
 * JSON and is REST only; admission, metering and the key guard are the same. src/catalogue.ts lists every declaration.
 */
import { z } from "zod";
import type { Db } from "../db/client";
import type { ErrorCode } from "../lib/errors";
import type { AnswerContext, DataContext } from "./context";

/**
 * Where an answer's data version comes from: a fixed string, or data a seed apply swaps in D1
 * (`read` gives the loaded version and checksum, read through the answer's own handle; `fallback`
 * names it where no request is at hand: the API document, file downloads built with the bundle).
 */
export type DataVersion =
  | string
  | {
      fallback: string;
      read(db: Db): Promise<{ version: string; checksum: string }>;
      /** The same read as a statement a handler's own batch can carry (src/data/reads.ts), and its result read back. */
      ride?: { statement(db: Db): D1PreparedStatement; loaded(result: D1Result): { version: string; checksum: string } };
    };

/** The version's name without reading anything. */
export const versionLabel = (v: DataVersion) => (typeof v === "string" ? v : v.fallback);

/** What every declaration has, whatever it answers. */
type Declaration<I extends z.ZodObject> = {
  /** Path under /api/v1, Hono syntax (`/wilayah/provinsi/:id`). */
  path: string;
  /** One paragraph an agent (and the API docs) can act on: when to use it, what it returns. */
  description: string;
  /** GET (the default): path params and query params; POST: path params and the JSON body's fields. Validated together; unknown parameters are refused. */
  input: I;
  /** GET (default) or POST (input in a JSON body: for batches and for values that must not travel in a URL). */
  method?: "GET" | "POST";
  /** How many metered calls one request is (a batch: one per item); default 1. Admission takes them all or refuses the request whole. */
  calls?(input: z.infer<I>): number;
  /** The x-data-version header and the cache namespace: a new version is a new cache key. */
  version: DataVersion;
  /** The API document's grouping (default "Regions"). */
  tag?: string;
  /** Codes this endpoint answers beyond every data call's (key, quota, rate, INVALID_QUERY). */
  errors?: ErrorCode[];
  /** A real request for the API document (query and path parameters, or the body of a POST); its answer is computed from the loaded data when the document is built, so it is never stale. */
  example?: Record<string, unknown>;
  /**
   * "paid": callers on the free plan are refused (403 PLAN_REQUIRED) before admission, so the
   * refusal is neither metered nor rate counted. Default: every plan.
   */
  plans?: "paid";
};

/** An endpoint answering JSON (`{data, meta?}`): a REST route and, unless `tool` is null, an MCP tool. */
export type JsonEndpoint<I extends z.ZodObject = z.ZodObject, O extends z.ZodType = z.ZodType> = Declaration<I> & {
  kind?: "json";
  /** The MCP tool name, or null for REST-only routes (by-id routes are served by `wilayah_detail`). */
  tool: string | null;
  output: O;
  /** Answers are identical for every caller and may be cached for this many seconds. */
  cacheSeconds: number;
  /**
   * "account": the input is the caller's own text (addresses, which name people's homes): cached
   * answers are kept per account and keyed by a digest, never by the text, so neither a cache key
   * holds the address nor an `x-cache: HIT` tells one customer that another asked the same. Default:
   * shared by every caller.
   */
  cacheScope?: "account";
  /** `ctx.reads`: this answer's region reads (src/db/reads.ts); every region read of the answer goes through them. */
  handler(input: z.infer<I>, ctx: AnswerContext): Promise<z.infer<O>>;
  /**
   * Changes the answer's JSON after the response cache, on every call (a hit too): for a fact that
   * changes faster than the cached answer (a region's open reports). It must read nothing from D1
   * per call (src/catalogue.ts wires it in from the feature that keeps the fact).
   */
  annotate?(json: string, input: z.infer<I>, ctx: DataContext): Promise<string>;
};

/** A file, streamed to the caller (the REST mount sets its headers): never cached by the runner, never an MCP tool. */
export type FileAnswer = {
  body: ReadableStream;
  /** `content-type` of the answer. */
  contentType: string;
  /** Offered to the caller in `content-disposition` (`attachment; filename=...`). */
  filename: string;
  size: number;
  /** More headers of the answer (checksums, etag). */
  headers?: Record<string, string>;
};

export type FileEndpoint<I extends z.ZodObject = z.ZodObject> = Declaration<I> & {
  kind: "file";
  /** Files are for programs that store them, not for an agent's context: never a tool. */
  tool: null;
  /** The answer's media types (for the API document), each with what it holds. */
  media: Record<string, string>;
  handler(input: z.infer<I>, ctx: AnswerContext): Promise<FileAnswer>;
};

export type DataEndpoint = JsonEndpoint | FileEndpoint;

export function defineEndpoint<I extends z.ZodObject, O extends z.ZodType>(e: JsonEndpoint<I, O>): JsonEndpoint<I, O> {
  return e;
}

export function defineFileEndpoint<I extends z.ZodObject>(e: Omit<FileEndpoint<I>, "kind" | "tool">): FileEndpoint<I> {
  return { ...e, kind: "file", tool: null };
}

export const isFileEndpoint = (ep: DataEndpoint): ep is FileEndpoint => ep.kind === "file";

/** The endpoint's tag: its group in the API document, and what a publishable key's list names (src/keys/publishable.ts). */
export const endpointTag = (ep: DataEndpoint): string => ep.tag ?? "Regions";

/** Boolean flag: `1`/`true`/`0`/`false` in a query string, or a JSON boolean. */
export const flagParam = z
  .union([z.boolean(), z.enum(["1", "0", "true", "false"])])
  .optional()
  .transform((v) => v === true || v === "1" || v === "true");
