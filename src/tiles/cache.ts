/**
 * Where a tile is kept once read: this isolate's memory (16 MB at most; a tile is 1 to 85 KB: no
 * subrequest at all), then the location's Cache API, then R2 (src/tiles/service.ts reads the
 * archive). Keys name the tiles' id, which changes with the data, so a new seed never answers an old
 * tile. Knows nothing of requests, keys or metering: the route (src/routes/tiles.ts) asks for bytes.
 */
import { LRUCache } from "lru-cache";
import { CURRENT_TILES, readTile, type TileCoords } from "./service";

/** The Cache API's keys are URLs: this one is never fetched. */
const CACHE_ORIGIN = "https://tiles-cache.wilayah.invalid";

const hot = new LRUCache<string, Uint8Array>({ maxSize: 16 * 1024 * 1024, sizeCalculation: (t) => Math.max(1, t.length) });

/**
 * The tile as stored: from this isolate's memory, else the location's cache, else R2 (then kept in
 * both; `waitUntil` finishes the cache write after the answer). Empty tiles are kept too, as an
 * empty body. RESPONSE_CACHE=off (the benchmark's uncached pass) reads R2 every time.
 */
export async function storedTile(env: Env, coords: TileCoords, waitUntil: (p: Promise<unknown>) => void): Promise<Uint8Array | null> {
  if (env.RESPONSE_CACHE === "off") return readTile(env.EXPORTS, coords);
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
  const tile = await readTile(env.EXPORTS, coords);
  hot.set(key, tile ?? new Uint8Array(0));
  waitUntil(cache.put(key, new Response(tile ?? new Uint8Array(0), { headers: { "cache-control": "public, max-age=31536000, immutable" } })));
  return tile;
}
