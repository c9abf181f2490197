import { ApiError } from "./errors";

/** Workers rate-limit binding: approximate, per Cloudflare location. For abuse throttles, not billing. */
export async function throttle(limiter: RateLimit, key: string, periodSeconds: number): Promise<void> {
  const { success } = await limiter.limit({ key });
  if (!success) {
    throw new ApiError("RATE_LIMITED", `Too many requests. Try again in ${periodSeconds} seconds.`, { headers: { "retry-after": String(periodSeconds) } });
  }
}
