/**
 * The whole seed build (scripts/seed/build.ts buildSeed of seed/), once for the node suites that
 * only read it (the quality sets' draws, the address set): the first caller builds it (about 30 s
 * quiet, minutes beside the Worker suites) and keeps it in test/.generated/seed-build-<hash>.v8,
 * which the next callers read in about three seconds (scripts/kept.ts: lanes that start together wait
 * for the first one's build). The hash is of everything the build reads or runs (seed/, scripts/,
 * src/; tests aside), so any change there builds it again.
 */
import { join } from "node:path";
import { inputsKey } from "../../scripts/inputs-key.ts";
import { kept } from "../../scripts/kept.ts";
import { root, SEED_DIR } from "../../scripts/lib.ts";
import { buildSeed, type SeedResult } from "../../scripts/seed/build.ts";

const DIR = join(root, "test", ".generated");

export function builtSeed(): Promise<SeedResult> {
  return kept(DIR, "seed-build", inputsKey([SEED_DIR, join(root, "scripts"), join(root, "src")]), () => buildSeed(SEED_DIR));
}
