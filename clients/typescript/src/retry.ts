/**
 * A `fetch` that retries what is worth retrying, a bounded number of times:
 * - 429 (rate limited), any method: the API refused the call before doing anything, so sending it
 *   again is safe. Waits what `Retry-After` says (seconds or an HTTP date); when the server asks for
 *   longer than `maxRetryAfterMs`, gives up at once and hands back the 429 (the caller's ApiError
 *   then carries `retryAfter`), rather than stall a caller for minutes.
 * - 500, 502, 503, 504 and network failures, idempotent methods only (GET, HEAD, OPTIONS, PUT,
 *   DELETE): exponential back-off with full jitter. A POST (a top-up, a key) is never sent twice.
 * Works wherever `fetch`, `Request` and `setTimeout` exist: Node 18+, browsers, Workers.
 */

export type RetryOptions = {
  /** Retries after the first attempt (so at most maxRetries + 1 requests). Default 2. */
  maxRetries?: number;
  /** First back-off step for 5xx and network failures. Default 500 ms. */
  baseDelayMs?: number;
  /** Ceiling of one back-off wait. Default 8 s. */
  maxDelayMs?: number;
  /** Longest `Retry-After` the client will wait for; longer ones are returned at once. Default 60 s. */
  maxRetryAfterMs?: number;
  /** For tests: how to wait, and the jitter's random source. */
  sleep?: (ms: number, signal?: AbortSignal | null) => Promise<void>;
  random?: () => number;
};

const IDEMPOTENT = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);
const RETRIED_5XX = new Set([500, 502, 503, 504]);

/** `Retry-After` in milliseconds (delta-seconds or an HTTP date); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function defaultSleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function retryingFetch(fetchImpl: typeof fetch = globalThis.fetch, options: RetryOptions = {}): typeof fetch {
  const maxRetries = options.maxRetries ?? 2;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 8_000;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const sleep = options.sleep ?? defaultSleep;
  const random = options.random ?? Math.random;
  const backoff = (retry: number) => Math.floor(random() * Math.min(maxDelayMs, baseDelayMs * 2 ** retry));

  return async (input, init) => {
    // One Request to clone per attempt: a body can be read only once.
    const request = new Request(input, init);
    const idempotent = IDEMPOTENT.has(request.method.toUpperCase());
    for (let retry = 0; ; retry++) {
      const last = retry >= maxRetries;
      let response: Response;
      try {
        response = await fetchImpl(request.clone());
      } catch (error) {
        // An abort is the caller's decision, not a failure to retry.
        if (last || !idempotent || request.signal.aborted) throw error;
        await sleep(backoff(retry), request.signal);
        continue;
      }
      if (last) return response;
      let wait: number | null = null;
      if (response.status === 429) {
        const asked = parseRetryAfter(response.headers.get("retry-after"));
        if (asked !== null && asked > maxRetryAfterMs) return response;
        wait = asked ?? backoff(retry);
      } else if (RETRIED_5XX.has(response.status) && idempotent) {
        wait = backoff(retry);
      }
      if (wait === null) return response;
      // Free the connection of the answer we drop.
      await response.body?.cancel().catch(() => {});
      await sleep(wait, request.signal);
    }
  };
}
