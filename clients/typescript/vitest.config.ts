import { defineConfig } from "vitest/config";

/**
 * The SDK's tests, run with the repository's vitest (../test.sh, or by hand:
 * `node scripts/boot.mjs vitest run --config clients/typescript/vitest.config.ts` from the root).
 * retry.test.ts needs nothing; worker.test.ts needs a running Worker (WILAYAH_BASE_URL and keys).
 */
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["test/**/*.test.ts"],
    environment: "node",
    // The real 429 test waits out the rate limiter's minute.
    testTimeout: 90_000,
  },
});
