/**
 * A hash of files' contents (a folder: every file below it, tests aside), naming a result kept
 * between runs (scripts/seed/neighbours-cache.ts; the suites' test/node/built-seed.ts and
 * test/setup/boundaries-subset.ts): any change to what it is made from names another.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

function filesOf(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !e.name.endsWith(".test.ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

export function inputsKey(paths: string[], extra = ""): string {
  const hash = createHash("sha256").update(extra);
  for (const file of paths.flatMap(filesOf)) hash.update(file).update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}
