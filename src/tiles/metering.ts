/**
 * Tiles are metered at a fraction of a call: one call per TILES_PER_CALL tiles of a key. A map
 * view is 20 to 60 tiles and every pan or zoom asks for a dozen more, so a tile priced as a whole
 * call would make a map cost as much as hundreds of lookups; peers price tiles per 1,000. At ten
 * tiles a call the free plan's quota is a few hundred map views, and the plan's per-minute rate
 * (which counts calls) lets ten times as many tiles through.
 *
 * How: this isolate keeps, per key, the tiles left that an admitted call has paid for. A tile with
 * none left is admitted as one call (rate, quota, credits: the account's admission, so a refused
 * call refuses that tile), which pays for it and the key's next nine. No tile is served before its
 * call is admitted: tiles asked for while an admission is on its way wait for its outcome, reading
 * this isolate's memory on their own timer (a request must not await another request's I/O:
 * Workers then run its continuation in the other request's context, and its own answer fails, as
 * it did under load). So a map's first burst of 20 tiles is two calls, and a key that can pay for
 * nothing gets 402 on every tile (a refusal is remembered for a second, so the burst behind it is
 * refused at once rather than each tile asking again). A tile that turns out empty (204) or
 * unchanged (304) goes back to its block: those are free. Rounding is up: an isolate that stops in
 * the middle of a block has charged the whole block.
 */

export const TILES_PER_CALL = 10;

type Block = { left: number; admitting: boolean; refused?: { error: unknown; until: number } };

/** Each key's block in this isolate. */
const blocks = new Map<string, Block>();
/** Keys kept at most (an isolate serving more keys forgets the oldest: at most nine tiles each, paid already). */
const MAX_KEYS = 10_000;
/** How long a tile waits for another tile's admission before asking itself. */
const WAIT_MS = 2_000;
const POLL_MS = 5;
/** How long a refusal answers the key's next tiles without asking again. */
const REFUSAL_MS = 1_000;

function blockOf(key: string): Block {
  let b = blocks.get(key);
  if (!b) {
    if (blocks.size >= MAX_KEYS) blocks.delete(blocks.keys().next().value as string);
    b = { left: 0, admitting: false };
    blocks.set(key, b);
  }
  return b;
}

/**
 * Meters one tile of `key` before it is served; `admitOne` admits (and counts) one call, throwing
 * its refusal. Returns how to give the tile back when it was not served (empty, unchanged, failed).
 */
export async function meterTile(key: string, admitOne: () => Promise<unknown>): Promise<() => void> {
  const b = blockOf(key);
  const giveBack = () => {
    b.left++;
  };
  for (const until = Date.now() + WAIT_MS; ; ) {
    if (b.left > 0) {
      b.left--;
      return giveBack;
    }
    if (b.refused && b.refused.until > Date.now()) throw b.refused.error;
    if (!b.admitting || Date.now() >= until) break;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  b.admitting = true;
  try {
    await admitOne();
    b.refused = undefined;
    b.left += TILES_PER_CALL - 1; // this tile, and nine more
    return giveBack;
  } catch (e) {
    b.refused = { error: e, until: Date.now() + REFUSAL_MS };
    throw e;
  } finally {
    b.admitting = false;
  }
}
