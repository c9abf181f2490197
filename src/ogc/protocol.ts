/**
 * What GIS clients expect of every answer of the OGC surface (./routes.ts): errors in the OGC API
 * exception format, `{"code", "description", "status", "request_id"}` (HTML for a browser), which
 * GDAL and QGIS show to their user as it is; the encoding asked for (`f`, else the Accept header);
 * and the routes' documentation with those error answers and the key also as a query parameter.
 */
import type { Context, ErrorHandler } from "hono";
import { describeRoute } from "hono-openapi";
import type { BaseEnv } from "../http/context";
import { type DocOptions, lazyOperation, operation } from "../http/docs";
import { failureAnswer } from "../lib/dependency";
import { ApiError, type ErrorCode } from "../lib/errors";
import { LEVELS } from "../wilayah/codes";
import { errorHtml } from "./html";
import { KEY_PARAM } from "./service";

/** OGC's names for the statuses GIS clients meet most; any other code in PascalCase (QUOTA_EXCEEDED: QuotaExceeded). */
const OGC_CODES: Partial<Record<ErrorCode, string>> = { INVALID_QUERY: "InvalidParameterValue", NOT_FOUND: "NotFound" };
export const ogcCode = (code: ErrorCode) => OGC_CODES[code] ?? code.toLowerCase().replace(/(^|_)([a-z])/g, (_, __, ch: string) => ch.toUpperCase());

/** The encoding asked for: `f` (json, html), else a browser's Accept (text/html before any JSON type). */
export function wantsHtml(c: Context): boolean {
  const f = c.req.query("f");
  if (f !== undefined) {
    if (f === "html") return true;
    if (f === "json") return false;
    throw new ApiError("INVALID_QUERY", `f must be json or html; got "${f.slice(0, 20)}".`, { details: [{ path: "f", message: "json or html" }] });
  }
  const types = (c.req.header("accept") ?? "").split(",").map((t) => t.split(";")[0].trim().toLowerCase());
  const html = types.indexOf("text/html");
  const json = types.findIndex((t) => t === "application/json" || t.endsWith("+json"));
  return html >= 0 && (json < 0 || html < json);
}

const FGB_PATH = /^\/api\/v1\/wilayah\/export\/[^/]+\.fgb$/;
/** The addresses whose errors are OGC exceptions: the OGC API, and the FlatGeobuf files GIS tools read. */
export const speaksOgc = (path: string): boolean => path === "/ogc" || path.startsWith("/ogc/") || FGB_PATH.test(path);

/** Every failure in the OGC exception format (HTML for a browser); a dependency's passing failure is 503, anything else a logged 500. */
export const ogcError: ErrorHandler<BaseEnv> = (err, c) => {
  const e = failureAnswer(err, { request_id: c.get("requestId"), path: c.req.path });
  for (const [k, v] of Object.entries(e.extra.headers ?? {})) c.header(k, v);
  let html = false;
  try {
    html = wantsHtml(c);
  } catch {
    // a bad `f` is answered in JSON
  }
  if (html) return c.html(errorHtml(e.status, ogcCode(e.code), e.message), e.status);
  return c.json({ code: ogcCode(e.code), description: e.message, status: e.status, request_id: c.get("requestId") }, e.status);
};

/** The OGC exception body, for the product's API document (these routes do not answer the `{"error": ...}` body). */
const EXCEPTION_SCHEMA = {
  type: "object",
  required: ["code", "description", "status", "request_id"],
  properties: {
    code: { type: "string", description: "InvalidParameterValue, NotFound, MissingApiKey, InvalidApiKey, QuotaExceeded, ..." },
    description: { type: "string" },
    status: { type: "integer" },
    request_id: { type: "string" },
  },
};

/** A route's documentation as doc() writes it, its error answers in the OGC exception format, the key also as a query parameter. */
export function ogcDoc(o: DocOptions & { keyInQuery?: boolean }) {
  return describeRoute(
    lazyOperation(() => {
      const op = operation({
        ...o,
        parameters: [
          ...(o.parameters ?? []),
          ...(o.keyInQuery
            ? [
                {
                  in: "query",
                  name: KEY_PARAM,
                  required: false,
                  schema: { type: "string" },
                  description: "Your secret API key, for GIS tools that cannot send the x-api-key header (these routes only; never written into a link)",
                },
              ]
            : []),
        ],
      });
      const responses = op.responses as Record<string, { content?: Record<string, unknown> }>;
      for (const [status, r] of Object.entries(responses)) {
        // The OGC exception; a page for a browser (f=html, or its Accept) on the routes that answer HTML.
        if (Number(status) >= 400 && r.content) {
          r.content = {
            "application/json": { schema: EXCEPTION_SCHEMA },
            ...(o.ok.media?.["text/html"] ? { "text/html": { schema: { type: "string" } } } : {}),
          };
        }
      }
      return op;
    }),
  );
}

export const f = {
  in: "query",
  name: "f",
  required: false,
  schema: { type: "string", enum: ["json", "html"] },
  description: "json (default) or html (a browser's Accept also asks for HTML)",
};
export const collectionParam = { in: "path", name: "collectionId", required: true, schema: { type: "string", enum: [...LEVELS] } };
export const TAGS = ["GIS (OGC API – Features)"];
