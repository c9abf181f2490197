import { ApiError } from "./errors";
import { errorText, log } from "./log";

/**
 * Workers rate-limit binding: approximate, per Cloudflare location. For abuse throttles, not billing.
 * When the binding itself fails, the request goes on (fails open, logged): a throttle protects the
 * service, and quota and credits are decided elsewhere, exactly.
 */
export async function throttle(limiter: RateLimit, key: string, periodSeconds: number): Promise<void> {
  let success: boolean;
  try {
    ({ success } = await limiter.limit({ key }));
  } catch (e) {
    log.warn("rate_limiter_failed_open", { key: key.split(":")[0], error: errorText(e) });
    return;
  }
  if (!success) {
    throw new ApiError("RATE_LIMITED", `Too many requests. Try again in ${periodSeconds} seconds.`, { headers: { "retry-after": String(periodSeconds) } });
  }
}
