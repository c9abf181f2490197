/**
 * mulberry32: a small seeded generator (not for secrets: lib/crypto.ts is), so a generated quality
 * set, a sample or a fault schedule is the same on every run. Returns numbers in [0, 1).
 */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
