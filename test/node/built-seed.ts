/**
 * The whole seed build (scripts/seed/build.ts buildSeed of seed/), once for the node suites that
 * only read it (the quality sets' draws, the address set): the first caller builds it (about 30 s
 * quiet, minutes beside the Worker suites) and keeps it in test/.generated/seed-build-<hash>.v8,
 * which the next callers read in about three seconds. The hash is of everything the build reads or
 * runs (seed/, scripts/, src/; tests aside), so any change there builds it again.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { root, SEED_DIR } from "../../scripts/lib.ts";
import { buildSeed, type SeedResult } from "../../scripts/seed/build.ts";
import { inputsKey } from "../setup/inputs-key.ts";

const DIR = join(root, "test", ".generated");

export async function builtSeed(): Promise<SeedResult> {
  const file = join(DIR, `seed-build-${inputsKey([SEED_DIR, join(root, "scripts"), join(root, "src")])}.v8`);
  if (existsSync(file)) return deserialize(readFileSync(file)) as SeedResult;
  const seed = await buildSeed(SEED_DIR);
  mkdirSync(DIR, { recursive: true });
  for (const old of readdirSync(DIR).filter((f) => f.startsWith("seed-build-"))) rmSync(join(DIR, old), { force: true });
  // Written aside, then renamed: a suite starting meanwhile reads a whole file or none.
  const part = `${file}.${process.pid}.part`;
  writeFileSync(part, serialize(seed));
  renameSync(part, file);
  return seed;
}
