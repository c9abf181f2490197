/**
 * The browser suite's global setup: Chromium checked and the local state prepared once
 * (test/browser/local.ts PREPARED), before the files start; each file then copies it into a state
 * of its own, so the files run beside each other (and beside the other suites) with a Worker each.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { root } from "../../scripts/lib.ts";
import { assertBrowser, prepareState } from "./local.ts";

export default function setup() {
  assertBrowser();
  // Copies left by an interrupted run.
  rmSync(join(root, ".wrangler", "browser-runs"), { recursive: true, force: true });
  prepareState();
}
