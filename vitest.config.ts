import { readFileSync } from "node:fs";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { copyDocsAssets } from "./scripts/docs-assets.ts";
import LongestFirst from "./test/setup/sequencer.ts";

/**
 * Five projects: `worker` runs the Worker in workerd (miniflare) with D1 holding the real seed and
 * drives it through HTTP and MCP; `node` tests the build scripts (seed build, coordinates import);
 * `browser` walks the portal in Chromium against `wrangler dev` (test/browser/); `edition`
 * takes in a synthetic edition and applies it under load against `wrangler dev` (test/edition/);
 * `gis` reads the OGC API and the FlatGeobuf exports with GDAL against `wrangler dev` (test/gis/).
 */
export default defineConfig(async () => {
  copyDocsAssets(); // the [assets] folder the Worker config names must exist
  const migrations = await readD1Migrations("./migrations");
  return {
    test: {
      // Three files at a time on CI's two cores (vitest's default is one core less than the machine
      // has: one): much of the suites' time is waiting (the Worker tests' fault scenarios on timers
      // and leases, the browser on pages, the edition on wrangler), so a third lane keeps the CPU
      // busy: 1.2 cores used on average over a 13-minute run with two.
      maxWorkers: 3,
      // The longest files first, over all projects (test/setup/sequencer.ts).
      sequence: { sequencer: LongestFirst },
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: "./wrangler.toml" },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  // The seed as a text binding, not an imported module: each test file's workerd gets
                  // it with its configuration, instead of importing 30 MB through Vite's module
                  // runner (about 20 s a file on this machine).
                  TEST_SEED_SQL: readFileSync("./seed/wilayah.sql", "utf8"),
                  JWT_SECRET: "test-secret-test-secret-test-secret-0001",
                  JWT_SECRET_PREVIOUS: "test-secret-previous-previous-previous-01",
                  MCP_HOSTNAMES: "api.wilayah.test",
                  // Fault-injection scenarios (test/faults): 200 faults each, times this.
                  FAULTS_SCALE: process.env.FAULTS_SCALE ?? "1",
                  // wrangler.toml says production; the tests run as development (the console mailer) and reach no network.
                  ENVIRONMENT: "development",
                  BREACHED_PASSWORDS_URL: "",
                  // D1's production limits, which local D1 does not enforce (src/db/guard.ts): a breach fails the test.
                  D1_GUARD: "on",
                },
              },
            }),
          ],
          test: {
            name: "worker",
            // One workerd for all the files (not one per file): the seed is loaded once, not once
            // per file (about 22 s each here). Files share D1, KV and module state: each test makes
            // its own users, keys and client IPs (test/helpers.ts), so none needs an empty database.
            isolate: false,
            include: ["test/**/*.test.ts"],
            exclude: ["test/node/**", "test/browser/**", "test/edition/**", "test/gis/**"],
            globalSetup: ["./test/setup/boundaries-subset.ts", "./test/setup/exports-subset.ts", "./test/setup/tiles-subset.ts"],
            setupFiles: ["./test/setup/apply-seed.ts"],
            testTimeout: 30_000,
            hookTimeout: 120_000,
          },
        },
        {
          test: {
            name: "node",
            // Unit tests sit beside their module (src/**, scripts/**); test/node/ keeps the whole-data checks.
            include: ["test/node/**/*.test.ts", "src/**/*.test.ts", "scripts/**/*.test.ts"],
            environment: "node",
            // The files of a lane share one process and its modules (the API's services, the seed
            // build kept by test/node/built-seed.ts) instead of importing them again for each of 73
            // files: the project's CPU 340 -> 286 s (docs/performance.md). A file that changes the
            // process (process.env, PATH, spies on console) puts it back when it ends.
            isolate: false,
            testTimeout: 60_000,
          },
        },
        {
          test: {
            // A new edition end to end (issue 34): edition:add, seed:apply under load, against wrangler dev.
            name: "edition",
            include: ["test/edition/**/*.test.ts"],
            environment: "node",
            testTimeout: 120_000,
            hookTimeout: 900_000,
          },
        },
        {
          test: {
            // GDAL (gdal-bin) reading the OGC API and the FlatGeobuf exports of a `wrangler dev` of its own (test/gis/, issue 53).
            name: "gis",
            include: ["test/gis/**/*.test.ts"],
            environment: "node",
            testTimeout: 300_000,
            // A first run builds the whole state (seed, every boundary, the bulk exports): about 25 min on a busy 2-core machine; CI copies a state built once.
            hookTimeout: 2_400_000,
          },
        },
        {
          test: {
            name: "browser",
            include: ["test/browser/**/*.test.ts"],
            // The state prepared once; each file copies it and starts a wrangler dev of its own on
            // free ports, so the files share the lanes with the other projects' (not one at a time
            // after everything else: about 6 minutes of one idle lane).
            globalSetup: ["./test/browser/setup.ts"],
            environment: "node",
            testTimeout: 120_000,
            hookTimeout: 300_000,
          },
        },
      ],
    },
  };
});
