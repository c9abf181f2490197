/**
 * What the scripts share: the repository root, `.dev.vars`, and running wrangler (`d1 execute`
 * among others) against local or remote resources. Node only.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const wranglerBin = join(root, "node_modules", ".bin", "wrangler");
/**
 * The repository's seed directory: its inputs (sources/, the editions, curated files) and what the
 * build writes. The seed functions take the directory they work on as a parameter; the commands
 * default to this one.
 */
export const SEED_DIR = join(root, "seed");

/** A seed command's directory: `--seed DIR` (a copy: the edition tests take in a synthetic edition in one, never in seed/), else SEED_DIR. */
export function seedDirArg(args: string[]): string {
  const at = args.indexOf("--seed");
  if (at < 0) return SEED_DIR;
  const dir = args[at + 1];
  if (!dir || dir.startsWith("--")) throw new Error("--seed needs a directory");
  return resolve(dir);
}
/** The environment every wrangler call gets: no usage metrics sent. */
export const toolEnv = { ...process.env, WRANGLER_SEND_METRICS: "false" };

/** True when `importMetaUrl`'s file is the script Node was started with (not imported by a test). */
export const isMain = (importMetaUrl: string) => Boolean(process.argv[1]) && fileURLToPath(importMetaUrl) === process.argv[1];

/** `.dev.vars` as KEY -> value (comments and blank lines skipped); empty when the file is missing. */
export function readDevVars(file = join(root, ".dev.vars")): Record<string, string> {
  if (!existsSync(file)) return {};
  const vars: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^([A-Z_][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) vars[m[1]] = m[2].trim();
  }
  return vars;
}

/**
 * The wrangler the scripts' commands run: the first `wrangler` on PATH, else the project's. Every
 * npm script puts node_modules/.bin first on PATH (scripts/boot.mjs), so that is the project's too;
 * the deploy's test puts a stand-in before it, which records what it is asked (scripts/deploy.test.ts).
 */
function wranglerOnPath(): string {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const file = join(dir, "wrangler");
    if (dir && existsSync(file)) return file;
  }
  return wranglerBin;
}

/** Runs wrangler; throws with its output when it fails. `capture` returns stdout instead of showing it. */
export function wrangler(args: string[], opts: { capture?: boolean } = {}): string {
  const r = spawnSync(wranglerOnPath(), args, {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    encoding: "utf8",
    stdio: opts.capture ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  if (r.status !== 0) {
    const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
    if (opts.capture) process.stderr.write(output);
    // the end of what it said, so a caller can tell a passing condition (a locked local database) from a real failure
    throw new Error(`wrangler ${args.slice(0, 3).join(" ")} failed (exit ${r.status})${opts.capture ? `: ${output.slice(-600)}` : ""}`);
  }
  return r.stdout ?? "";
}

/** Runs wrangler to ask something (does this exist?): its exit status and output, failing or not. */
export function wranglerStatus(args: string[]): { ok: boolean; out: string } {
  const r = spawnSync(wranglerOnPath(), args, {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { ok: r.status === 0, out: `${r.stdout ?? ""}${r.stderr ?? ""}` };
}

/**
 * Where local state lives: a folder of its own (`--persist-to`), else WRANGLER_PERSIST_TO (the state
 * `npm run dev` serves), else wrangler's default (.wrangler/state). Every local command (admin grant,
 * payment simulator, seed loads, exports) goes through here, so all of them use the state the
 * developer's `npm run dev` uses.
 */
export type Target = { remote?: boolean; persistTo?: string };

export function targetArgs(t: Target = {}): string[] {
  if (t.remote) return ["--remote"];
  const persistTo = t.persistTo ?? (process.env.WRANGLER_PERSIST_TO || undefined);
  return ["--local", ...(persistTo ? ["--persist-to", persistTo] : [])];
}

/**
 * `wrangler d1 execute DB` on `t` with `args`; its output. Run again when the local database was
 * locked by another process (`wrangler dev` writing to the same SQLite file: SQLITE_BUSY, a state D1
 * itself does not have). Safe: a locked command changed nothing (each command is one transaction).
 */
export function d1Execute(t: Target, args: string[]): string {
  for (let attempt = 1; ; attempt++) {
    try {
      return wrangler(["d1", "execute", "DB", ...targetArgs(t), ...args], { capture: true });
    } catch (e) {
      const busy = /SQLITE_BUSY|database is locked/.test(e instanceof Error ? e.message : "");
      if (!busy || t.remote || attempt === 5) throw e;
      console.error(`wrangler d1 execute: the local database is locked by another process; trying again (${attempt}/4)...`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1_000 * attempt);
    }
  }
}

/** One SQL command on the D1 binding `DB`; the rows it returned. */
export function d1(sqlCommand: string, t: Target = {}): Record<string, unknown>[] {
  const out = d1Execute(t, ["--json", "--command", sqlCommand]);
  return (JSON.parse(out) as { results: Record<string, unknown>[] }[])[0]?.results ?? [];
}

/** A SQL string literal. */
export const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;

/**
 * Multi-row INSERTs of already rendered `(...)` tuples, each statement cut below `maxBytes` (D1
 * caps one statement at 100 KB, and `wrangler d1 execute --file` runs them one by one).
 */
export function insertStatements(table: string, columns: string, tuples: Iterable<string>, maxBytes: number): string {
  let out = "";
  let batch: string[] = [];
  let size = 0;
  const flush = () => {
    if (batch.length) out += `INSERT INTO ${table} (${columns}) VALUES ${batch.join(",")};\n`;
    batch = [];
    size = 0;
  };
  for (const t of tuples) {
    if (size + t.length > maxBytes) flush();
    batch.push(t);
    size += t.length + 1;
  }
  flush();
  return out;
}

/** The four one-letter typos the quality sets draw, a quarter each (search queries, addresses). */
export const TYPO_OPS = ["deletion", "insertion", "substitution", "transposition"] as const;
export const LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** `word` with one typo `op` at position `i` (`c`: the letter inserted or substituted); null: a transposition at the last letter. */
export function typoOf(word: string, op: (typeof TYPO_OPS)[number], i: number, c: string): string | null {
  if (op === "deletion") return word.slice(0, i) + word.slice(i + 1);
  if (op === "insertion") return word.slice(0, i) + c + word.slice(i);
  if (op === "substitution") return word.slice(0, i) + c + word.slice(i + 1);
  return i + 1 < word.length ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2) : null;
}
