/**
 * Tiles are metered at a fraction of a call: one call per TILES_PER_CALL tiles of a key. A map
 * view is 20 to 60 tiles and every pan or zoom asks for a dozen more, so a tile priced as a whole
 * call would make a map cost as much as hundreds of lookups; peers price tiles per 1,000. At ten
 * tiles a call the free plan's quota is a few hundred map views, and the plan's per-minute rate
 * (which counts calls) lets ten times as many tiles through.
 *
 * How: this isolate keeps, per key, the tiles left in the block its last admission paid for. A tile
 * with none left is admitted as one call (rate, quota, credits: the account's admission, so a
 * refused call refuses that tile), which opens a block of ten: it and the key's next nine tiles.
 * The next nine do not wait for that admission: a request must not await another request's I/O
 * (Workers then run its continuation in the other request's context, and its own answer fails: it
 * did, under load). So a map's first burst of 20 tiles is two calls, not twenty; and when the
 * admission is refused, up to nine tiles asked for while it was in flight have been served unpaid
 * (the bound: nine tiles per refusal per isolate). Rounding is up: an isolate that stops in the
 * middle of a block has charged the whole block.
 */

export const TILES_PER_CALL = 10;

/** Tiles left in each key's current block (admitted, or being admitted). */
const left = new Map<string, number>();
/** Keys kept at most (an isolate serving more keys forgets the oldest: at most nine tiles each, paid already). */
const MAX_KEYS = 10_000;

/** Meters one tile of `key`; `admitOne` admits (and counts) one call, throwing its refusal. */
export async function meterTile(key: string, admitOne: () => Promise<unknown>): Promise<void> {
  const n = left.get(key) ?? 0;
  if (n > 0) {
    left.set(key, n - 1);
    return;
  }
  if (!left.has(key) && left.size >= MAX_KEYS) left.delete(left.keys().next().value as string);
  left.set(key, TILES_PER_CALL - 1);
  try {
    await admitOne();
  } catch (e) {
    // A refused call pays for nothing: the key's next tile asks again.
    left.delete(key);
    throw e;
  }
}
