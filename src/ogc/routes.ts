/**
 * The GIS surface (issue 53): OGC API – Features under /ogc (./service.ts writes the documents) and
 * each level's FlatGeobuf file, read by HTTP range requests (GET /api/v1/wilayah/export/{level}.fgb).
 *
 * Who may call, and what a request costs, is the gate's (src/gate), as each route declares it here:
 * a secret key from `x-api-key` or, for GIS tools that cannot set a header, the `api_key` query
 * parameter (`keyParam`: the gate takes it out of the URL before this code reads the query, so no
 * link or page here can repeat it); publishable keys refused (403); a page of items or one item a
 * call; the collections' metadata the per-minute rate only; the landing page, conformance and API
 * definition free; a FlatGeobuf file by ranges (meter `range`, paid plans).
 *
 * Every error here, the gate's refusals included, is answered in the OGC API exception format
 * (./protocol.ts): src/app.ts answers the errors of every address `speaksOgc` names with `ogcError`.
 */
import { type Context, Hono } from "hono";
import { consistent } from "../data/run";
import { regionDb } from "../db/client";
import { plainReads } from "../db/reads";
import { gate } from "../gate";
import type { BaseEnv } from "../http/context";
import { byteRange } from "../http/range";
import { ApiError } from "../lib/errors";
import { LEVELS, type Level } from "../wilayah/codes";
import { loadedDataset } from "../wilayah/dataset/queries";
import { dataFile } from "../wilayah/export/files";
import { exportFileBytes, exportFileEntry } from "../wilayah/export/service";
import { DATA_VERSION, WILAYAH_DATA } from "../wilayah/version";
import { ogcApiDefinition } from "./api";
import { collectionHtml, collectionsHtml, conformanceHtml, itemHtml, itemsHtml, landingHtml } from "./html";
import { collectionParam, f, ogcDoc, ogcError, TAGS, wantsHtml } from "./protocol";
import {
  collection,
  collectionOf,
  conformance,
  DEFAULT_LIMIT,
  isCollection,
  item,
  itemQuery,
  itemsPage,
  itemsQuery,
  KEY_PARAM,
  landingPage,
  MAX_LIMIT,
  PAGE_BYTES,
  provenance,
  queryables,
  refuseUnknown,
} from "./service";

export const ogcRoutes = new Hono<BaseEnv>();
ogcRoutes.onError(ogcError);

const base = (c: Context) => `${new URL(c.req.url).origin}/ogc`;
const fgbUrl = (c: Context, level: Level) => `${new URL(c.req.url).origin}/api/v1/wilayah/export/${dataFile(level, "fgb")}`;

/**
 * The callers of these routes (src/gate): secret keys only (publishable keys belong in web pages:
 * 403), the key also in `api_key`. The documents everyone reads declare the parameter too, so the
 * gate takes a key out of their URL as well (GDAL adds the connection URL's query to every request).
 * HEAD is the gate's too: 405 on the metered routes (a page would be paid for a body nobody receives).
 */
const keyed = { callers: ["secretKey"], tag: TAGS[0], keyParam: KEY_PARAM } as const;
/** A metered read counted under `endpoint` in usage, and logged under the same name in the account's request log. */
const countedAndLogged = (endpoint: string) => ({ endpoint, log: { surface: "rest" as const, route: endpoint } });
const free = gate({ callers: ["anyone"], keyParam: KEY_PARAM });
/** The collections, one collection, the queryables: the per-minute rate only, not the quota. */
const metadataGate = gate({ ...keyed, meter: "rate" });

ogcRoutes.get(
  "/ogc",
  ogcDoc({
    operationId: "getOgcLandingPage",
    tags: TAGS,
    summary: "OGC API – Features: landing page",
    description: "Links to the API definition, the conformance classes and the collections (one per level). No key needed.",
    caller: "none",
    input: "query",
    parameters: [f],
    ok: { description: "The landing page", media: { "application/json": "title, description, links", "text/html": "The same for a browser" } },
  }),
  free,
  (c) => {
    refuseUnknown(c.req.queries(), []);
    const doc = landingPage(base(c));
    return wantsHtml(c) ? c.html(landingHtml(doc)) : c.json(doc, 200, { "cache-control": "public, max-age=3600" });
  },
);

ogcRoutes.get(
  "/ogc/conformance",
  ogcDoc({
    operationId: "getOgcConformance",
    tags: TAGS,
    summary: "OGC API – Features: conformance classes",
    description: "The conformance classes implemented: Part 1 core, GeoJSON, HTML, OpenAPI 3.0; Part 3 queryables. No key needed.",
    caller: "none",
    input: "query",
    parameters: [f],
    ok: { description: "The conformance classes", media: { "application/json": "conformsTo", "text/html": "The same for a browser" } },
  }),
  free,
  (c) => {
    refuseUnknown(c.req.queries(), []);
    return wantsHtml(c) ? c.html(conformanceHtml(conformance())) : c.json(conformance(), 200, { "cache-control": "public, max-age=3600" });
  },
);

ogcRoutes.get(
  "/ogc/api",
  ogcDoc({
    operationId: "getOgcApiDefinition",
    tags: TAGS,
    summary: "OGC API – Features: its API definition (OpenAPI 3.0)",
    description: "The OGC API's own definition, its server /ogc, each collection's items path with its queryables (where GDAL looks for them). No key needed.",
    caller: "none",
    input: "query",
    parameters: [{ ...f, schema: { type: "string", enum: ["json"] }, description: "json only" }],
    // Media types without parameters, as the API document keys them (the answer says ;version=3.0).
    ok: { description: "OpenAPI 3.0", media: { "application/vnd.oai.openapi+json": "The definition (version=3.0)" } },
  }),
  free,
  (c) => {
    refuseUnknown(c.req.queries(), []);
    // JSON only, whatever a browser accepts: its documentation for people is the guide (the landing page's service-doc link).
    const f = c.req.query("f");
    if (f !== undefined && f !== "json")
      throw new ApiError("INVALID_QUERY", "The API definition is JSON only (f=json); the guide /docs/guide/qgis-and-gdal documents it for people.");
    return c.body(JSON.stringify(ogcApiDefinition(base(c))), 200, {
      "content-type": "application/vnd.oai.openapi+json;version=3.0",
      "cache-control": "public, max-age=3600",
    });
  },
);

/** A metadata request (collections, one collection, queryables): the collection named (if any), no other parameter. */
function metadataCall(c: Context<BaseEnv>): void {
  const collectionId = c.req.param("collectionId");
  if (collectionId !== undefined) collectionOf(collectionId);
  refuseUnknown(c.req.queries(), []);
}

/** What the collections' metadata needs: the loaded data's version and the provenance (kept per isolate by the sources room). */
async function metadata(c: Context<BaseEnv>) {
  const db = regionDb(c.env);
  const loaded = (await loadedDataset(db)) ?? { version: DATA_VERSION, checksum: "" };
  return { db, loaded, p: await provenance(plainReads(db, loaded.checksum), loaded.version) };
}

ogcRoutes.get(
  "/ogc/collections",
  ogcDoc({
    operationId: "getOgcCollections",
    tags: TAGS,
    summary: "OGC API – Features: the collections",
    description:
      "One collection per level (provinsi, kabupaten, kecamatan, kelurahan), each with its extent, CRS84, the edition of the code list, and the licence and attribution of its sources. Counts against the per-minute rate, not the quota.",
    caller: "apiKey",
    keyInQuery: true,
    input: "query",
    parameters: [f],
    errors: ["SECRET_KEY_REQUIRED"],
    ok: { description: "The collections", media: { "application/json": "links, collections", "text/html": "The same for a browser" } },
  }),
  metadataGate,
  async (c) => {
    metadataCall(c);
    const { db, loaded, p } = await metadata(c);
    const collections = await Promise.all(LEVELS.map((l) => collection(db, base(c), l, p, loaded.checksum, fgbUrl(c, l))));
    const doc = {
      links: [
        { href: `${base(c)}/collections`, rel: "self", type: "application/json", title: "The collections" },
        { href: `${base(c)}/collections?f=html`, rel: "alternate", type: "text/html", title: "The collections as HTML" },
      ],
      collections,
    };
    return wantsHtml(c) ? c.html(collectionsHtml(doc)) : c.json(doc, 200, { "x-data-version": loaded.version });
  },
);

ogcRoutes.get(
  "/ogc/collections/:collectionId",
  ogcDoc({
    operationId: "getOgcCollection",
    tags: TAGS,
    summary: "OGC API – Features: one collection",
    description: "A level's collection: extent, CRS84, links (items, queryables, the FlatGeobuf file), the edition and the sources with their licences.",
    caller: "apiKey",
    keyInQuery: true,
    input: "query",
    parameters: [collectionParam, f],
    errors: ["NOT_FOUND", "SECRET_KEY_REQUIRED"],
    ok: { description: "The collection", media: { "application/json": "The collection's metadata", "text/html": "The same for a browser" } },
  }),
  metadataGate,
  async (c) => {
    metadataCall(c);
    const level = collectionOf(c.req.param("collectionId"));
    const { db, loaded, p } = await metadata(c);
    const doc = await collection(db, base(c), level, p, loaded.checksum, fgbUrl(c, level));
    return wantsHtml(c) ? c.html(collectionHtml(doc)) : c.json(doc, 200, { "x-data-version": loaded.version });
  },
);

ogcRoutes.get(
  "/ogc/collections/:collectionId/queryables",
  ogcDoc({
    operationId: "getOgcQueryables",
    tags: TAGS,
    summary: "OGC API – Features: the properties a collection filters on",
    description: "A JSON Schema (OGC API – Features Part 3) of the properties the items take as filters: the parents' codes, the name and a few more.",
    caller: "apiKey",
    keyInQuery: true,
    input: "query",
    parameters: [collectionParam, f],
    errors: ["NOT_FOUND", "SECRET_KEY_REQUIRED"],
    ok: { description: "The queryables", media: { "application/schema+json": "JSON Schema 2020-12", "text/html": "The same for a browser" } },
  }),
  metadataGate,
  async (c) => {
    metadataCall(c);
    const level = collectionOf(c.req.param("collectionId"));
    const doc = queryables(base(c), level);
    if (wantsHtml(c))
      return c.html(collectionHtml({ id: level, title: `${doc.title}: queryables`, description: Object.keys(doc.properties).join(", "), links: [] }));
    return c.body(JSON.stringify(doc), 200, { "content-type": "application/schema+json" });
  },
);

ogcRoutes.get(
  "/ogc/collections/:collectionId/items",
  ogcDoc({
    operationId: "getOgcItems",
    tags: TAGS,
    summary: "OGC API – Features: a page of a collection's features",
    description: `A GeoJSON FeatureCollection of current regions in id order: id is the Kemendagri code, properties as the by-id answer gives them (flat: population in three columns; every parent's code; BPS codes), boundaries simplified by default (simplify=0: the stored precision). limit: default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT} (more is 400); a page also stops at about ${PAGE_BYTES / 1024 / 1024} MiB of GeoJSON, so numberReturned may be below limit: follow the next link (it carries \`after\`, the last code). bbox (CRS84) selects the features whose bounding box intersects it; the collection's queryables filter by property (?kabupaten_id=32.73, ?name=Suka*). One call per page.`,
    caller: "apiKey",
    keyInQuery: true,
    input: "query",
    parameters: [
      collectionParam,
      { in: "query", name: "limit", required: false, schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } },
      { in: "query", name: "bbox", required: false, schema: { type: "string" }, description: "minLon,minLat,maxLon,maxLat (CRS84)" },
      { in: "query", name: "after", required: false, schema: { type: "string" }, description: "The page starts after this code (the next link carries it)" },
      {
        in: "query",
        name: "simplify",
        required: false,
        schema: { type: "number", minimum: 0, maximum: 1 },
        description: "Tolerance in degrees; 0: full precision",
      },
      { in: "query", name: "provinsi_id", required: false, schema: { type: "string", maxLength: 40 }, description: "A queryable (not of provinsi)" },
      { in: "query", name: "kabupaten_id", required: false, schema: { type: "string", maxLength: 40 }, description: "A queryable (kecamatan, kelurahan)" },
      { in: "query", name: "kecamatan_id", required: false, schema: { type: "string", maxLength: 40 }, description: "A queryable (kelurahan)" },
      { in: "query", name: "name", required: false, schema: { type: "string", maxLength: 40 }, description: "A queryable: case-insensitive, * any characters" },
      f,
    ],
    errors: ["NOT_FOUND", "SECRET_KEY_REQUIRED", "METHOD_NOT_ALLOWED"],
    ok: { description: "A page of features", media: { "application/geo+json": "A FeatureCollection", "text/html": "The page for a browser, with a map" } },
  }),
  // One call per page, admitted by the gate before the query is read and given back unless the page is served.
  gate({
    ...keyed,
    meter: "call",
    ...countedAndLogged("/ogc/collections/{collectionId}/items"),
  }),
  async (c) => {
    const level = collectionOf(c.req.param("collectionId"));
    const query = c.req.queries();
    const q = itemsQuery(level, query);
    const html = wantsHtml(c);
    const { value: page, loaded } = await consistent(WILAYAH_DATA, c.env, (reads) => itemsPage(reads.db, base(c), level, q, query, new Date().toISOString()));
    const headers: Record<string, string> = { "x-data-version": loaded.version, "cache-control": "private, max-age=300" };
    if (page.next) headers.link = `<${page.next}>; rel="next"; type="application/geo+json"`;
    if (html) return c.html(itemsHtml(level, page), 200, headers);
    return c.body(page.json, 200, { ...headers, "content-type": "application/geo+json" });
  },
);

ogcRoutes.get(
  "/ogc/collections/:collectionId/items/:featureId",
  ogcDoc({
    operationId: "getOgcItem",
    tags: TAGS,
    summary: "OGC API – Features: one feature",
    description: "One current region of the collection by its code (dots optional), as a GeoJSON Feature. One call.",
    caller: "apiKey",
    keyInQuery: true,
    input: "query",
    parameters: [
      collectionParam,
      { in: "path", name: "featureId", required: true, schema: { type: "string" } },
      {
        in: "query",
        name: "simplify",
        required: false,
        schema: { type: "number", minimum: 0, maximum: 1 },
        description: "Tolerance in degrees; 0: full precision",
      },
      f,
    ],
    errors: ["NOT_FOUND", "SECRET_KEY_REQUIRED", "METHOD_NOT_ALLOWED"],
    ok: { description: "The feature", media: { "application/geo+json": "A Feature", "text/html": "The feature for a browser" } },
  }),
  gate({
    ...keyed,
    meter: "call",
    ...countedAndLogged("/ogc/collections/{collectionId}/items/{featureId}"),
  }),
  async (c) => {
    const level = collectionOf(c.req.param("collectionId"));
    const simplify = itemQuery(level, c.req.queries());
    const html = wantsHtml(c);
    const { value: feature, loaded } = await consistent(WILAYAH_DATA, c.env, (reads) => item(reads.db, level, c.req.param("featureId"), simplify));
    const self = `${base(c)}/collections/${level}/items/${feature.id}`;
    const links = [
      { href: self, rel: "self", type: "application/geo+json", title: "This feature" },
      { href: `${base(c)}/collections/${level}`, rel: "collection", type: "application/json", title: "The collection" },
    ];
    const headers = { "x-data-version": loaded.version, "cache-control": "private, max-age=300" };
    if (html) return c.html(itemHtml(level, feature), 200, headers);
    return c.body(JSON.stringify({ ...feature, links }), 200, { ...headers, "content-type": "application/geo+json" });
  },
);

/**
 * A level's FlatGeobuf file, for GIS tools to open by URL (`ogrinfo /vsicurl/<url>`, QGIS "Add
 * vector layer"): answers HEAD (its size) and GET with or without one byte range (206 with
 * Content-Range), so a tool reads the header, the spatial index and only the features of its view.
 */
// GET only: Hono answers HEAD with this route too (c.req.method says which), without a body.
ogcRoutes.get(
  "/api/v1/wilayah/export/:level{[^/]+\\.fgb}",
  ogcDoc({
    operationId: "getExportFlatGeobuf",
    tags: ["Exports"],
    summary: "A level's FlatGeobuf file, by HTTP range requests",
    description:
      "Every region of a level that has a boundary, with its properties, as FlatGeobuf with a packed Hilbert R-tree index (EPSG:4326): open the URL in QGIS or GDAL (/vsicurl/), which read only the ranges they need. HEAD gives the size; GET takes one `Range: bytes=...` (206 with Content-Range) or none (the whole file, 200). For paid plans. Metering: a range that names at most 1 MiB (`bytes=first-last`, `bytes=-suffix`) is a tenth of a call; the whole file, an open range (`bytes=first-`) or a longer one is one call; HEAD counts against the per-minute rate only.",
    caller: "apiKey",
    keyInQuery: true,
    input: "query",
    parameters: [{ in: "path", name: "level", required: true, schema: { type: "string", enum: [...LEVELS] } }],
    errors: ["NOT_FOUND", "SECRET_KEY_REQUIRED", "PLAN_REQUIRED", "RANGE_NOT_SATISFIABLE"],
    ok: { description: "The file, or the range asked for (206)", media: { "application/flatgeobuf": "FlatGeobuf 3" } },
  }),
  // A bulk export (paid plans, secret keys): HEAD the rate only, a short range a tenth of a call, anything else a call (src/gate/meter.ts).
  gate({
    ...keyed,
    tag: "Exports",
    meter: "range",
    plans: "paid",
    ...countedAndLogged("/wilayah/export/{level}.fgb"),
    head: true,
  }),
  async (c) => {
    refuseUnknown(c.req.queries(), []);
    // The path's parameter holds the extension too (a regex route): kelurahan.fgb, the file's name in the export.
    const name = c.req.param("level");
    if (!isCollection(name.slice(0, -".fgb".length)))
      throw new ApiError("NOT_FOUND", `No FlatGeobuf file ${name.slice(0, 40)}: the levels are ${LEVELS.join(", ")}.`);
    const { entry, exportId } = await exportFileEntry(c.env.EXPORTS, name);
    const headers: Record<string, string> = {
      "content-type": entry.media_type,
      "accept-ranges": "bytes",
      etag: `"${entry.sha256}"`,
      "x-export-id": exportId,
      "cache-control": "private, max-age=3600",
    };
    if (c.req.method === "HEAD") return c.body(null, 200, { ...headers, "content-length": String(entry.size) });
    const range = byteRange(c.req.header("range"), entry.size);
    const body = await exportFileBytes(c.env.EXPORTS, exportId, name, range ?? undefined);
    if (!range) return c.body(body, 200, { ...headers, "content-length": String(entry.size) });
    return c.body(body, 206, {
      ...headers,
      "content-length": String(range.length),
      "content-range": `bytes ${range.offset}-${range.offset + range.length - 1}/${entry.size}`,
    });
  },
);

/**
 * Any other address under /ogc (an empty feature id, a trailing slash, a typo): 404 in the OGC
 * exception format, as a GIS client shows it; the routes above take GET only, so another method is 405.
 */
ogcRoutes.all("/ogc/*", free, (c) => {
  if (c.req.method !== "GET" && c.req.method !== "HEAD")
    throw new ApiError("METHOD_NOT_ALLOWED", "The OGC API is read-only: use GET.", { headers: { allow: "GET" } });
  throw new ApiError("NOT_FOUND", `No resource at ${c.req.path.slice(0, 120)}. The API starts at /ogc (its collections: /ogc/collections).`);
});
