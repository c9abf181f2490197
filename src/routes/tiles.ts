/**
 * Vector tiles (issue 38): GET /tiles/{z}/{x}/{y}.mvt, the TileJSON (/tiles/tiles.json) and a
 * MapLibre style (/tiles/style.json). Tiles need an API key (`x-api-key`; MapLibre sends it with
 * `transformRequest`) and are metered at a tenth of a call (src/tiles/metering.ts), except the
 * site's own map (/map and the landing page), whose page carries a short-lived token
 * (src/gate/map-token.ts): with it, tiles up to zoom 9 are served under a per-client-network
 * allowance, metered to no account. The gate (src/gate) decides who is calling and meters the tile
 * before this route runs.
 *
 * Caching: every tile is kept in this isolate's memory and the location's Cache API under the tiles'
 * id (src/tiles/cache.ts), so a new seed never answers an old tile; browsers keep a tile for a year when its URL
 * names the current id (`?v=`, as the TileJSON's and the style's URLs do), an hour otherwise, and
 * revalidate with its ETag (304, not metered).
 */
import { type Context, Hono } from "hono";
import type { DataContext } from "../data/context";
import { type Caller, gate, publicRoute, SITE_MAP_MAXZOOM } from "../gate";
import type { BaseEnv } from "../http/context";
import { doc } from "../http/docs";
import { ApiError } from "../lib/errors";
import { storedTile } from "../tiles/cache";
import { TILES_MAXZOOM } from "../tiles/files";
import { TILES_PER_CALL } from "../tiles/metering";
import { CURRENT_TILES, mapStyle, tileCoords, tileJson } from "../tiles/service";
import { DATA_VERSION } from "../wilayah/version";

type TileEnv = { Bindings: Env; Variables: BaseEnv["Variables"] & { caller: Caller; call?: DataContext } };

export const tileRoutes = new Hono<TileEnv>();

const ETAG = `"${CURRENT_TILES}"`;
/**
 * The origin the TileJSON's and the style's URLs name: the deployment's configured public URL
 * (PUBLIC_API_URL), so a request's Host header never reaches an answer others may be given; without
 * one, the request's own origin, and then the answer is private and varies by Host (no shared cache
 * may hand one host's URLs to another).
 */
function urlsFor(c: Context): { origin: string; cache: Record<string, string> } {
  if (c.env.PUBLIC_API_URL) return { origin: new URL(c.env.PUBLIC_API_URL).origin, cache: { "cache-control": "public, max-age=300" } };
  return { origin: new URL(c.req.url).origin, cache: { "cache-control": "private, max-age=300", vary: "host" } };
}

const tileParams = ["z", "x", "y"].map((name) => ({ in: "path", name, required: true, schema: { type: "integer", minimum: 0 } }));

tileRoutes.get(
  "/tiles/:z/:x/:y{[^/]+\\.mvt}",
  doc({
    operationId: "getTile",
    tags: ["Maps"],
    summary: "A vector tile",
    description: `A Mapbox Vector Tile (gzip) of the four levels' boundaries: layers provinsi (from zoom 0), kabupaten (4), kecamatan (7), kelurahan (10), each feature with its code, name, level and parent codes, and label (a point per region at its centroid). Zooms 0 to ${TILES_MAXZOOM}; a map draws deeper zooms from zoom ${TILES_MAXZOOM}. 204 for a tile with nothing in it (open sea); 304 when If-None-Match names the current tiles. Metered as 1/${TILES_PER_CALL} of a call (a call per ${TILES_PER_CALL} tiles, empty tiles and 304 free). Use the URL in GET /tiles/tiles.json (it names the data version, so browsers keep tiles for good).`,
    caller: "apiKey",
    input: "query",
    parameters: [
      ...tileParams,
      { in: "query", name: "v", required: false, schema: { type: "string" }, description: "The tiles' id (the TileJSON's URL carries it)" },
    ],
    ok: { description: "The tile", media: { "application/vnd.mapbox-vector-tile": "MVT 2.1, gzip content-encoding" } },
    errors: ["SERVICE_UNAVAILABLE"],
  }),
  gate({
    callers: ["secretKey", "publishableKey", "siteMap"],
    tag: "Tiles",
    meter: "tile",
    endpoint: "/tiles/{z}/{x}/{y}.mvt",
    throttle: "map",
    log: { surface: "tiles", route: "/tiles/{z}/{x}/{y}.mvt" },
  }),
  async (c) => {
    const coords = tileCoords(c.req.param("z"), c.req.param("x"), c.req.param("y").slice(0, -".mvt".length));
    const unknown = Object.keys(c.req.queries()).filter((k) => k !== "v");
    if (unknown.length) throw new ApiError("INVALID_QUERY", `Unknown query parameter: ${unknown.join(", ")} (a tile takes only v, the tiles' id).`);
    // The site's map: tiles up to zoom 9 only (it draws deeper zooms from them); its per-network rate is the gate's (MAP_LIMITER).
    if (c.get("caller").kind === "siteMap" && coords.z > SITE_MAP_MAXZOOM)
      throw new ApiError(
        "FORBIDDEN",
        `The site's map draws zooms above ${SITE_MAP_MAXZOOM} from zoom ${SITE_MAP_MAXZOOM}: tiles of zooms ${SITE_MAP_MAXZOOM + 1} to ${TILES_MAXZOOM} need an API key.`,
      );
    const current = c.req.query("v") === CURRENT_TILES;
    const headers: Record<string, string> = {
      etag: ETAG,
      "x-data-version": DATA_VERSION,
      "cache-control": current ? "private, max-age=31536000, immutable" : "private, max-age=3600",
      vary: "x-api-key, x-map-token",
    };
    if (
      c.req
        .header("if-none-match")
        ?.split(",")
        .some((t) => t.trim().replace(/^W\//, "") === ETAG)
    )
      return new Response(null, { status: 304, headers });
    const tile = await storedTile(c.env, coords, (p) => c.executionCtx.waitUntil(p));
    if (!tile) return new Response(null, { status: 204, headers });
    // Stored gzipped: sent as it is (encodeBody "manual": the runtime must not compress it again).
    return new Response(tile, {
      status: 200,
      headers: { ...headers, "content-type": "application/vnd.mapbox-vector-tile", "content-encoding": "gzip", "content-length": String(tile.length) },
      encodeBody: "manual",
    });
  },
);

tileRoutes.get(
  "/tiles/tiles.json",
  doc({
    operationId: "getTileJson",
    tags: ["Maps"],
    summary: "TileJSON of the vector tiles",
    description:
      "TileJSON 3.0.0: the tile URL (with the tiles' id, which changes with the data), zooms, bounds, and each layer's fields. Public (no key): tiles themselves need one.",
    caller: "none",
    ok: { description: "TileJSON", media: { "application/json": "TileJSON 3.0.0" } },
    errors: ["SERVICE_UNAVAILABLE"],
  }),
  publicRoute,
  async (c) => {
    const { origin, cache } = urlsFor(c);
    return c.json(await tileJson(c.env.EXPORTS, origin), 200, { ...cache, "x-data-version": DATA_VERSION });
  },
);

tileRoutes.get(
  "/tiles/style.json",
  doc({
    operationId: "getMapStyle",
    tags: ["Maps"],
    summary: "A MapLibre style of the boundaries",
    description:
      "A MapLibre style with the boundaries of every level, their labels and a plain background (no third-party basemap, glyphs or sprites); the layer kabupaten-density (hidden) is a choropleth of population density. Public (no key): give MapLibre your key for the tiles with transformRequest (docs/api.md, Maps). `maxzoom` caps the tiles' source (MapLibre draws deeper zooms from it): the site's own map asks for 10.",
    caller: "none",
    input: "query",
    parameters: [{ in: "query", name: "maxzoom", required: false, schema: { type: "integer", minimum: 0, maximum: TILES_MAXZOOM } }],
    ok: { description: "The style", media: { "application/json": "MapLibre style (version 8)" } },
  }),
  publicRoute,
  (c) => {
    const { origin, cache } = urlsFor(c);
    const unknown = Object.keys(c.req.queries()).filter((k) => k !== "maxzoom");
    if (unknown.length) throw new ApiError("INVALID_QUERY", `Unknown query parameter: ${unknown.join(", ")} (the style takes only maxzoom).`);
    const said = c.req.query("maxzoom");
    const maxzoom = said === undefined ? TILES_MAXZOOM : Number(said);
    if (!/^\d{1,2}$/.test(said ?? "0") || maxzoom > TILES_MAXZOOM)
      throw new ApiError("INVALID_QUERY", `maxzoom must be a whole number from 0 to ${TILES_MAXZOOM}.`);
    return c.json(mapStyle(origin, maxzoom), 200, { ...cache, "x-data-version": DATA_VERSION });
  },
);
