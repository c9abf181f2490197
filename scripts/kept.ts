/**
 * A result computed once per change of what it is made from, and kept on disk between runs: the
 * seed build's neighbours (scripts/seed/neighbours-cache.ts) and the suites' whole seed build
 * (test/node/built-seed.ts). The file is `<dir>/<name>-<key>.v8` (node:v8's serialization), where
 * `key` names the inputs (scripts/inputs-key.ts); one is kept per name, the others removed.
 *
 * Two processes that need it at once (the test suites' lanes, a build beside `edition:add`) compute
 * it once: the first holds `<file>.lock` (its pid inside) while it computes, the others wait for the
 * file. A lock whose process is gone, or older than LOCK_STALE_MS, is taken over.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deserialize, serialize } from "node:v8";

/** A lock this old is left from a process that died (the longest computation kept takes minutes on a busy machine). */
const LOCK_STALE_MS = 15 * 60_000;
const POLL_MS = 500;

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether the process holding `lock` is gone: ended, or the lock too old. Throws when the lock is gone meanwhile. */
function abandoned(lock: string): boolean {
  if (Date.now() - statSync(lock).mtimeMs > LOCK_STALE_MS) return true;
  const pid = Number(readFileSync(lock, "utf8").trim());
  if (!Number.isInteger(pid) || pid <= 0) return false; // being written
  try {
    process.kill(pid, 0); // signal 0 only asks whether the process exists
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ESRCH";
  }
}

export async function kept<T>(dir: string, name: string, key: string, compute: () => Promise<T> | T): Promise<T> {
  const file = join(dir, `${name}-${key}.v8`);
  const lock = `${file}.lock`;
  mkdirSync(dir, { recursive: true });
  for (;;) {
    if (existsSync(file)) return deserialize(readFileSync(file)) as T;
    try {
      writeFileSync(lock, String(process.pid), { flag: "wx" }); // fails when another process holds it
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    let gone = false;
    try {
      gone = abandoned(lock);
    } catch {
      // the lock went meanwhile (its result is written): look again
    }
    if (gone) rmSync(lock, { force: true });
    else await wait(POLL_MS);
  }
  try {
    // A result another process wrote between our look and our lock.
    if (existsSync(file)) return deserialize(readFileSync(file)) as T;
    const result = await compute();
    // Written aside, then renamed: a reader finds a whole file or none.
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, serialize(result));
    renameSync(part, file);
    // This name's other keys only (hex, scripts/inputs-key.ts): "seed" must not take "seed-build-...".
    const ours = new RegExp(`^${name}-[0-9a-f]+\\.v8$`);
    for (const old of readdirSync(dir).filter((f) => ours.test(f) && join(dir, f) !== file)) rmSync(join(dir, old), { force: true });
    return result;
  } finally {
    rmSync(lock, { force: true });
  }
}
