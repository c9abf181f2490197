/**
 * Vector tiles (issue 38): GET /tiles/{z}/{x}/{y}.mvt, the TileJSON (/tiles/tiles.json) and a
 * MapLibre style (/tiles/style.json). Tiles need an API key (`x-api-key`; MapLibre sends it with
 * `transformRequest`) and are metered at a tenth of a call (src/tiles/metering.ts), except the
 * site's own map (/map and the landing page): a request from this origin's pages without a key
 * (the browser's `Sec-Fetch-Site: same-origin`, which a page elsewhere cannot set) is served under a
 * per-client-IP allowance, metered to no account, like the landing page's demo.
 *
 * Caching: every tile is kept in the location's Cache API under the tiles' id (which changes with
 * the data), so a new seed never answers an old tile; browsers keep a tile for a year when its URL
 * names the current id (`?v=`, as the TileJSON's and the style's URLs do), an hour otherwise, and
 * revalidate with its ETag (304, not metered).
 */
import { type Context, Hono } from "hono";
import { LRUCache } from "lru-cache";
import { admitCall } from "../account/admission";
import type { BaseEnv } from "../http/context";
import { doc } from "../http/docs";
import { admitPublishable, originAllowed, requestOrigin } from "../keys/publishable";
import { resolveApiKey } from "../keys/service";
import { ApiError } from "../lib/errors";
import { throttle } from "../lib/throttle";
import { TILES_MAXZOOM } from "../tiles/files";
import { meterTile, TILES_PER_CALL } from "../tiles/metering";
import { CURRENT_TILES, mapStyle, readTile, tileCoords, tileJson } from "../tiles/service";
import { DATA_VERSION } from "../wilayah/version";
import { loggedTiles, tileCaller } from "./request-log";

export const tileRoutes = new Hono<BaseEnv>();

const CACHE_ORIGIN = "https://tiles-cache.wilayah.invalid";
const ETAG = `"${CURRENT_TILES}"`;
const origin = (c: Context) => new URL(c.req.url).origin;

/** Hot tiles in this isolate's memory (16 MB at most; a tile is 1 to 85 KB): no subrequest at all. */
const hot = new LRUCache<string, Uint8Array>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (t) => Math.max(1, t.length) });

/**
 * The tile as stored: from this isolate's memory, else the location's cache, else R2 (then kept in
 * both). Empty tiles are kept too, as an empty body. RESPONSE_CACHE=off (the benchmark's uncached
 * pass) reads R2 every time.
 */
async function storedTile(c: Context<BaseEnv>, coords: { z: number; x: number; y: number }): Promise<Uint8Array | null> {
  if (c.env.RESPONSE_CACHE === "off") return readTile(c.env.EXPORTS, coords);
  const key = `${CACHE_ORIGIN}/${CURRENT_TILES}/${coords.z}/${coords.x}/${coords.y}`;
  const inMemory = hot.get(key);
  if (inMemory) return inMemory.length ? inMemory : null;
  const cache = (caches as unknown as { default: Cache }).default;
  const hit = await cache.match(key);
  if (hit) {
    const bytes = new Uint8Array(await hit.arrayBuffer());
    hot.set(key, bytes);
    return bytes.length ? bytes : null;
  }
  const tile = await readTile(c.env.EXPORTS, coords);
  hot.set(key, tile ?? new Uint8Array(0));
  c.executionCtx.waitUntil(cache.put(key, new Response(tile ?? new Uint8Array(0), { headers: { "cache-control": "public, max-age=31536000, immutable" } })));
  return tile;
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
  loggedTiles,
  async (c) => {
    // Hono answers HEAD with this route: a tile would be metered for a body nobody receives.
    if (c.req.method === "HEAD") throw new ApiError("METHOD_NOT_ALLOWED", "HEAD is not served on tiles; use GET.", { headers: { allow: "GET" } });
    const coords = tileCoords(c.req.param("z"), c.req.param("x"), c.req.param("y").slice(0, -".mvt".length));
    const unknown = Object.keys(c.req.queries()).filter((k) => k !== "v");
    if (unknown.length) throw new ApiError("INVALID_QUERY", `Unknown query parameter: ${unknown.join(", ")} (a tile takes only v, the tiles' id).`);
    const waitUntil = (p: Promise<unknown>) => c.executionCtx.waitUntil(p);
    const key = c.req.header("x-api-key");
    const ip = c.req.header("cf-connecting-ip");
    const from = requestOrigin(c.req.header("origin"), c.req.header("referer"));
    const principal = key === undefined && c.req.header("sec-fetch-site") === "same-origin" ? null : await resolveApiKey(c.env, key, waitUntil, ip, from);
    if (principal) tileCaller(c, principal); // the account's request log (routes/request-log.ts)
    if (principal?.publishable) {
      // A page's key (wk_pub_): only from its origins, answered for them only (src/data/guard.ts does the same for data calls).
      c.set("corsOrigin", from !== undefined && originAllowed(principal.publishable.allowedOrigins, from) ? from : null);
      admitPublishable(principal.publishable, from, "Tiles");
    }
    // The site's map: 600 tiles a minute per client IP without a key (wrangler.toml MAP_LIMITER).
    if (!principal) await throttle(c.env.MAP_LIMITER, `map:${ip ?? "unknown"}`, 60);
    const current = c.req.query("v") === CURRENT_TILES;
    const headers: Record<string, string> = {
      etag: ETAG,
      "x-data-version": DATA_VERSION,
      "cache-control": current ? "private, max-age=31536000, immutable" : "private, max-age=3600",
      vary: "x-api-key",
    };
    if (
      c.req
        .header("if-none-match")
        ?.split(",")
        .some((t) => t.trim().replace(/^W\//, "") === ETAG)
    )
      return new Response(null, { status: 304, headers });
    const tile = await storedTile(c, coords);
    if (!tile) return new Response(null, { status: 204, headers });
    if (principal) await meterTile(principal.keyId, () => admitCall(c.env, principal, "/tiles/{z}/{x}/{y}.mvt", waitUntil));
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
  async (c) => c.json(await tileJson(c.env.EXPORTS, origin(c)), 200, { "cache-control": "public, max-age=300", "x-data-version": DATA_VERSION }),
);

tileRoutes.get(
  "/tiles/style.json",
  doc({
    operationId: "getMapStyle",
    tags: ["Maps"],
    summary: "A MapLibre style of the boundaries",
    description:
      "A MapLibre style with the boundaries of every level, their labels and a plain background (no third-party basemap, glyphs or sprites); the layer kabupaten-density (hidden) is a choropleth of population density. Public (no key): give MapLibre your key for the tiles with transformRequest (docs/api.md, Maps).",
    caller: "none",
    ok: { description: "The style", media: { "application/json": "MapLibre style (version 8)" } },
  }),
  (c) => c.json(mapStyle(origin(c)), 200, { "cache-control": "public, max-age=300", "x-data-version": DATA_VERSION }),
);
