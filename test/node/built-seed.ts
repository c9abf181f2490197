/**
 * The whole seed build (scripts/seed/build.ts buildSeed of seed/), once for the node suites that
 * only read it (the quality sets' draws, the address set): the first caller builds it (about 30 s
 * quiet, minutes beside the Worker suites) and keeps it in test/.generated/seed-build.v8, which the
 * next callers read in about three seconds. The file is named by a hash of everything the build reads
 * or runs (seed/, scripts/, src/; tests aside), so any change there builds it again. The build's own tests
 * (scripts/seed/build.test.ts) build it themselves.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";
import { root, SEED_DIR } from "../../scripts/lib.ts";
import { buildSeed, type SeedResult } from "../../scripts/seed/build.ts";

const DIR = join(root, "test", ".generated");

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !e.name.endsWith(".test.ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** A hash of the build's inputs and code: seed/ (sources included), scripts/ and src/ (their tests aside). */
function inputsKey(): string {
  const hash = createHash("sha256");
  for (const dir of [SEED_DIR, join(root, "scripts"), join(root, "src")]) {
    for (const file of filesUnder(dir)) hash.update(file).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 16);
}

export async function builtSeed(): Promise<SeedResult> {
  const file = join(DIR, `seed-build-${inputsKey()}.v8`);
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
