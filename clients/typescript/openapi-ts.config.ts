import { defineConfig } from "@hey-api/openapi-ts";

/**
 * The generator's settings. ../generate.ts runs it with the API document it fetched and normalised
 * (OPENAPI_TS_INPUT) and a temporary output folder (OPENAPI_TS_OUTPUT), then copies the result to
 * src/generated (never edited by hand) or, with --check, compares. Run alone (`npm run generate`), it
 * reads the Worker of `npm run dev`.
 */
export default defineConfig({
  input: process.env.OPENAPI_TS_INPUT ?? "http://127.0.0.1:8787/openapi.json",
  output: {
    path: process.env.OPENAPI_TS_OUTPUT ?? "src/generated",
    // Explicit `.js` specifiers: the compiled package then loads in Node (ESM), browsers and Workers alike.
    importFileExtension: ".js",
  },
  plugins: [
    // No default base URL: the document's servers are local ones; callers pass theirs (src/index.ts).
    // throwOnError: a failed call rejects (with ApiError, see src/index.ts) and the SDK's types say so.
    { name: "@hey-api/client-fetch", baseUrl: false, throwOnError: true },
    "@hey-api/typescript",
    "@hey-api/sdk",
  ],
});
