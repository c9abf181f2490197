/**
 * Tiles are metered at a fraction of a call: one call per TILES_PER_CALL tiles of a key. A map
 * view is 20 to 60 tiles and every pan or zoom asks for a dozen more, so a tile priced as a whole
 * call would make a map cost as much as hundreds of lookups; peers price tiles per 1,000. At ten
 * tiles a call the free plan's quota is a few hundred map views, and the plan's per-minute rate
 * (which counts calls) lets ten times as many tiles through.
 *
 * How: this isolate keeps, per key, the block of tiles its last admitted call paid for. The first
 * tile of a block is admitted as one call (rate, quota, credits: the account's admission, so a
 * refused call refuses the tile); the next nine tiles ride on it. Tiles asked for while the block's
 * admission is in flight wait for it and share its answer. Rounding is up: a block started is a
 * call paid, so an isolate that stops mid-block has charged at most one call more than tiles/10.
 */

export const TILES_PER_CALL = 10;

type Block = { left: number; admitted: Promise<void> };
const blocks = new Map<string, Block>();
/** Keys kept at most (an isolate serving more keys forgets the oldest blocks: they are paid already). */
const MAX_KEYS = 10_000;

/** Meters one tile of `key`; `admitOne` admits (and counts) one call, throwing its refusal. */
export async function meterTile(key: string, admitOne: () => Promise<unknown>): Promise<void> {
  let block = blocks.get(key);
  if (!block || block.left <= 0) {
    if (blocks.size >= MAX_KEYS) blocks.delete(blocks.keys().next().value as string);
    const admitted = admitOne().then(() => undefined);
    const fresh: Block = { left: TILES_PER_CALL, admitted };
    blocks.set(key, fresh);
    // A refused admission pays for nothing: the next tile asks again.
    admitted.catch(() => {
      if (blocks.get(key) === fresh) blocks.delete(key);
    });
    block = fresh;
  }
  block.left--;
  await block.admitted;
}
