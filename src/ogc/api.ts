/**
 * The OGC API's own definition (GET /ogc/api, conformance class "oas30"): OpenAPI 3.0, its server
 * the API's base (/ogc), so its paths are the standard's. Each collection's items path is spelled
 * out with its queryables as query parameters: that is where GDAL's OAPIF driver looks for the
 * properties it may filter on at the server (`-where "kabupaten_id = '32.73'"` becomes
 * `?kabupaten_id=32.73`). The whole product's API document (/openapi.json) lists these routes too.
 */
import { LEVELS } from "../wilayah/codes";
import { CRS84, DEFAULT_LIMIT, DEFAULT_SIMPLIFY, KEY_PARAM, MAX_LIMIT, propertyAbout, QUERYABLES } from "./service";

const ref = (name: string) => ({ $ref: `#/components/parameters/${name}` });
const json = (description: string, type = "application/json") => ({ description, content: { [type]: { schema: { type: "object" } } } });
const errors = {
  "400": { $ref: "#/components/responses/Exception" },
  "401": { $ref: "#/components/responses/Exception" },
  "404": { $ref: "#/components/responses/Exception" },
};
const formats = (description: string, type = "application/json") => ({
  "200": { description, content: { [type]: { schema: { type: "object" } }, "text/html": { schema: { type: "string" } } } },
  ...errors,
});
const keyed = [{ apiKey: [] }, { apiKeyQuery: [] }];

function itemsOperation(queryables: readonly string[], collection?: string) {
  return {
    summary: collection ? `The ${collection} features` : "A collection's features",
    description: `GeoJSON FeatureCollection in id order; numberMatched, numberReturned and a next link while more remain. A page holds at most limit features and stops early at about 2 MiB (large boundaries): follow next. One call per page.`,
    ...(collection ? { operationId: `get${collection[0].toUpperCase()}${collection.slice(1)}Features` } : { operationId: "getFeatures" }),
    security: keyed,
    parameters: [
      ...(collection ? [] : [ref("collectionId")]),
      ref("limit"),
      ref("bbox"),
      ref("bbox-crs"),
      ref("crs"),
      ref("after"),
      ref("simplify"),
      ref("f"),
      ...queryables.map((q) => ({
        name: q,
        in: "query",
        required: false,
        description: `${propertyAbout(q).about}.${q === "name" ? " Case-insensitive; * matches any characters." : ""}`,
        schema: { type: "string" },
      })),
    ],
    responses: formats("The features", "application/geo+json"),
  };
}

export function ogcApiDefinition(base: string) {
  return {
    openapi: "3.0.3",
    info: {
      title: "Wilayah API: OGC API – Features",
      version: "1.0.0",
      description:
        "Indonesia's administrative regions as OGC API – Features (Part 1 Core, Part 3 queryables), one collection per level. Items need a secret API key: the x-api-key header or the api_key query parameter.",
    },
    servers: [{ url: base }],
    paths: {
      "/": { get: { operationId: "getLandingPage", summary: "Landing page", parameters: [ref("f")], responses: formats("The landing page") } },
      "/conformance": {
        get: { operationId: "getConformance", summary: "Conformance classes", parameters: [ref("f")], responses: formats("The conformance classes") },
      },
      "/api": {
        get: {
          operationId: "getApiDefinition",
          summary: "This API definition",
          responses: { "200": json("OpenAPI 3.0", "application/vnd.oai.openapi+json;version=3.0") },
        },
      },
      "/collections": {
        get: { operationId: "getCollections", summary: "The collections", security: keyed, parameters: [ref("f")], responses: formats("The collections") },
      },
      "/collections/{collectionId}": {
        get: {
          operationId: "describeCollection",
          summary: "A collection",
          security: keyed,
          parameters: [ref("collectionId"), ref("f")],
          responses: formats("The collection"),
        },
      },
      "/collections/{collectionId}/queryables": {
        get: {
          operationId: "getQueryables",
          summary: "Properties to filter on",
          security: keyed,
          parameters: [ref("collectionId"), ref("f")],
          responses: formats("A JSON Schema", "application/schema+json"),
        },
      },
      "/collections/{collectionId}/items": { get: itemsOperation([...new Set(LEVELS.flatMap((l) => QUERYABLES[l]))]) },
      ...Object.fromEntries(LEVELS.map((l) => [`/collections/${l}/items`, { get: itemsOperation(QUERYABLES[l], l) }])),
      "/collections/{collectionId}/items/{featureId}": {
        get: {
          operationId: "getFeature",
          summary: "One feature by its code",
          security: keyed,
          parameters: [
            ref("collectionId"),
            { name: "featureId", in: "path", required: true, schema: { type: "string" } },
            ref("simplify"),
            ref("crs"),
            ref("f"),
          ],
          responses: formats("The feature", "application/geo+json"),
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "x-api-key" },
        apiKeyQuery: { type: "apiKey", in: "query", name: KEY_PARAM, description: "For tools that cannot send a header; never written into a link" },
      },
      parameters: {
        collectionId: { name: "collectionId", in: "path", required: true, schema: { type: "string", enum: [...LEVELS] } },
        limit: {
          name: "limit",
          in: "query",
          required: false,
          description: `Features a page holds at most (default ${DEFAULT_LIMIT}, maximum ${MAX_LIMIT}: more is 400)`,
          schema: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT },
          style: "form",
          explode: false,
        },
        bbox: {
          name: "bbox",
          in: "query",
          required: false,
          description: "minLon,minLat,maxLon,maxLat (CRS84): features whose bounding box intersects it",
          schema: { type: "array", minItems: 4, maxItems: 6, items: { type: "number" } },
          style: "form",
          explode: false,
        },
        "bbox-crs": { name: "bbox-crs", in: "query", required: false, schema: { type: "string", enum: [CRS84] } },
        crs: { name: "crs", in: "query", required: false, schema: { type: "string", enum: [CRS84] } },
        after: {
          name: "after",
          in: "query",
          required: false,
          description: "The page starts after this code (the next link carries it)",
          schema: { type: "string" },
        },
        simplify: {
          name: "simplify",
          in: "query",
          required: false,
          description: `Douglas-Peucker tolerance in degrees, 0 for the full precision; default per collection: ${LEVELS.map((l) => `${l} ${DEFAULT_SIMPLIFY[l]}`).join(", ")}`,
          schema: { type: "number", minimum: 0, maximum: 1 },
        },
        f: { name: "f", in: "query", required: false, description: "Encoding (default: by Accept)", schema: { type: "string", enum: ["json", "html"] } },
      },
      responses: {
        Exception: {
          description: "An exception: code and description (OGC API exception), the HTTP status and the request id",
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["code", "description"],
                properties: { code: { type: "string" }, description: { type: "string" }, status: { type: "integer" }, request_id: { type: "string" } },
              },
            },
          },
        },
      },
    },
  };
}
