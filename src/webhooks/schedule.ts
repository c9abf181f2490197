/**
 * The retry schedule of a delivery: attempt n (from 1) that fails waits min(12 h, 30 s x 4^(n-1))
 * before the next: 30 s, 2 min, 8 min, 32 min, 2 h 8 min, 8 h 32 min, 12 h, 12 h. Nine attempts in
 * all, spread over 35 h 22 min (at least the 24 h promised); a ninth failure makes the delivery a dead
 * letter. Queues caps one delay at 12 h (43,200 s).
 */
export const MAX_ATTEMPTS = 9;
const MAX_DELAY_SECONDS = 43_200;

export function retryDelaySeconds(attempt: number): number {
  return Math.min(MAX_DELAY_SECONDS, 30 * 4 ** (Math.max(1, attempt) - 1));
}

/** Seconds from the first attempt to the last, when every one fails. */
export function scheduleSpanSeconds(): number {
  let total = 0;
  for (let n = 1; n < MAX_ATTEMPTS; n++) total += retryDelaySeconds(n);
  return total;
}

/** Failing this long without a success disables the endpoint (its owner is told by email). */
export const DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
