/**
 * The order the test files start in. Vitest's own runs the projects one after another by name
 * (browser, edition, gis, node, worker) and ranks files by its cache of earlier runs, which a clean
 * clone lacks: the Worker suites' slow fault scenarios, mostly waiting and not computing, came last
 * beside idle lanes. Here:
 * - the two longest files first (the edition's, minutes of seed builds and wrangler; the portal's
 *   in the browser), so they end in time, each computing beside the Worker suites' waiting;
 * - then the `worker` project's files as one block, longest first: they share one workerd per lane
 *   (`isolate: false`), which vitest keeps only while the next file queued is also one of them, so a
 *   block broken by another project's file starts a new workerd and loads the seed again (a run
 *   interleaving them took over 15 minutes);
 * - then every other file, longest first.
 * Durations are seconds from a full run on this machine (test/setup/durations.json: refresh with
 * `npm run test:durations` after `npm test`); a file not listed keeps vitest's order after the listed.
 */
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import durations from "./durations.json" with { type: "json" };

const seconds = durations as Record<string, number>;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known = (f: TestSpecification) => seconds[`${f.project.name}:${relative(f.project.config.root, f.moduleId)}`] ?? 0;
    const sorted = [...(await super.sort(files))].sort((a, b) => known(b) - known(a));
    const worker = sorted.filter((f) => f.project.name === "worker");
    const others = sorted.filter((f) => f.project.name !== "worker");
    return [...others.slice(0, 2), ...worker, ...others.slice(2)];
  }
}
