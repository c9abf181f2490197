/**
 * `npm run deploy` (scripts/deploy.ts) against a stand-in `wrangler` first on PATH: a small program
 * that plays an account from a JSON file (its databases, buckets, queues, secrets, migrations, the
 * loaded seed, the objects in R2), changes it as the real commands would, and records every call.
 * The long local builds (the seed's staging, the exports, the tiles) are small stand-ins too; what is
 * checked is the order of the steps, that each runs only when something is missing or changed, and
 * that `--plan` asks the account but changes nothing.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LAYOUT } from "../src/wilayah/export/files.ts";
import { deploy, type LocalWork } from "./deploy.ts";
import { root, SEED_DIR } from "./lib.ts";
import { seedExportId } from "./seed/exports.ts";
import { seedTilesId } from "./seed/tiles.ts";

/** The stand-in: answers from and writes to $STANDIN_STATE, appends each call to $STANDIN_LOG (one JSON line). */
const STANDIN = `#!/usr/bin/env node
const fs = require("node:fs");
const args = process.argv.slice(2);
const state = JSON.parse(fs.readFileSync(process.env.STANDIN_STATE, "utf8"));
const save = () => fs.writeFileSync(process.env.STANDIN_STATE, JSON.stringify(state));
const entry = { args };
const at = (name) => args[args.indexOf(name) + 1];
const out = (text, code = 0) => { fs.appendFileSync(process.env.STANDIN_LOG, JSON.stringify(entry) + "\\n"); process.stdout.write(text); process.exit(code); };
const is = (...words) => words.every((w, i) => args[i] === w);
if (is("whoami")) out("You are logged in with an API Token, associated with the account Test.\\n");
if (is("d1", "list")) out(JSON.stringify(state.databases.map((name) => ({ uuid: "u-" + name, name }))));
if (is("d1", "create")) { state.databases.push(args[2]); save(); out("created\\n"); }
if (is("r2", "bucket", "info")) out(state.buckets.includes(args[3]) ? "{}" : "The specified bucket does not exist.", state.buckets.includes(args[3]) ? 0 : 1);
if (is("r2", "bucket", "create")) { state.buckets.push(args[3]); save(); out("created\\n"); }
if (is("queues", "info")) out(state.queues.includes(args[2]) ? "ok" : "Queue not found", state.queues.includes(args[2]) ? 0 : 1);
if (is("queues", "create")) { state.queues.push(args[2]); save(); out("created\\n"); }
if (is("secret", "list")) out(state.worker ? JSON.stringify(state.secrets.map((name) => ({ name, type: "secret_text" }))) : "This Worker does not exist on your account. [code: 10007]", state.worker ? 0 : 1);
if (is("d1", "migrations", "list")) out(state.migrated ? "No migrations to apply!" : "Migrations to be applied:\\n| 0000_init.sql |\\n| 0024_last.sql |\\n");
if (is("d1", "migrations", "apply")) { state.migrated = true; save(); out("applied\\n"); }
if (is("d1", "execute") && args.includes("--command")) out(state.migrated ? JSON.stringify([{ results: state.dataset, success: true }]) : "no such table: dataset", state.migrated ? 0 : 1);
if (is("r2", "object", "get")) out(state.objects.includes(args[3]) ? "{}" : "The specified key does not exist.", state.objects.includes(args[3]) ? 0 : 1);
if (is("r2", "object", "put")) { state.objects.push(args[3]); save(); out("uploaded\\n"); }
if (is("deploy")) {
  if (args.includes("--secrets-file")) { entry.secrets = Object.keys(JSON.parse(fs.readFileSync(at("--secrets-file"), "utf8"))); state.secrets.push(...entry.secrets); }
  if (!args.includes("--dry-run")) { state.worker = true; save(); }
  out("deployed\\n");
}
out("stand-in: unexpected call\\n", 2);
`;

type Call = { args: string[]; secrets?: string[] };
type Account = {
  databases: string[];
  buckets: string[];
  queues: string[];
  worker: boolean;
  secrets: string[];
  migrated: boolean;
  dataset: { id: string; checksum: string }[];
  objects: string[];
};

const dir = mkdtempSync(join(tmpdir(), "deploy-test-"));
const stateFile = join(dir, "account.json");
const logFile = join(dir, "calls.jsonl");
const manifest = JSON.parse(readFileSync(join(SEED_DIR, "manifest.json"), "utf8")) as { checksum: string; boundaries: { kelurahan: { checksum: string } } };
const LOADED = [
  { id: "wilayah", checksum: manifest.checksum },
  { id: "boundaries-kelurahan", checksum: manifest.boundaries.kelurahan.checksum },
];
const exportsKey = `wilayah-exports/wilayah/${LAYOUT}/${seedExportId(SEED_DIR)}/manifest.json`;
const tilesReport = `wilayah-exports/tiles/v1/${seedTilesId(SEED_DIR)}/report.json`;

let savedPath: string | undefined;
beforeAll(() => {
  mkdirSync(join(dir, "bin"));
  writeFileSync(join(dir, "bin", "wrangler"), STANDIN);
  chmodSync(join(dir, "bin", "wrangler"), 0o755);
  savedPath = process.env.PATH;
  process.env.PATH = `${join(dir, "bin")}${delimiter}${process.env.PATH}`;
  process.env.STANDIN_STATE = stateFile;
  process.env.STANDIN_LOG = logFile;
});
afterAll(() => {
  process.env.PATH = savedPath;
  rmSync(dir, { recursive: true, force: true });
});

const account = (): Account => JSON.parse(readFileSync(stateFile, "utf8")) as Account;
const setAccount = (a: Account) => writeFileSync(stateFile, JSON.stringify(a));
/** The calls since the last look, each as one line of text; the local builds appear as `(local ...)`. */
function calls(): string[] {
  const lines = readFileSync(logFile, "utf8").split("\n").filter(Boolean);
  writeFileSync(logFile, "");
  return lines.map((l) => {
    const c = JSON.parse(l) as Call;
    return c.args[0] === "(local" ? c.args.join(" ") : `${c.args.join(" ")}${c.secrets ? ` [${c.secrets.join(",")}]` : ""}`;
  });
}
const CHANGES = /^(d1 create|r2 bucket create|queues create|d1 migrations apply|r2 object put|deploy)|^\(local/;
const changes = () => calls().filter((c) => CHANGES.test(c));

/** The long builds: small files of the right shape, and a line in the log where each ran. */
const mark = (what: string) => writeFileSync(logFile, `${JSON.stringify({ args: ["(local", `${what})`] })}\n`, { flag: "a" });
const work: LocalWork = {
  async applySeed() {
    mark("seed:apply");
    const a = account();
    setAccount({ ...a, dataset: LOADED });
  },
  async exports() {
    mark("exports build");
    const out = mkdtempSync(join(dir, "exports-"));
    writeFileSync(join(out, "wilayah-provinsi.csv"), "id,name\n32,Jawa Barat\n");
    writeFileSync(join(out, "manifest.json"), "{}");
    const file = { name: "wilayah-provinsi.csv", level: "provinsi", format: "csv", media_type: "text/csv", records: 1, size: 22, sha256: "x" } as const;
    return [out, { export_id: seedExportId(SEED_DIR), data_version: "test", license: "test", files: [file], mappings: [] }];
  },
  tiles() {
    mark("tiles build");
    const out = mkdtempSync(join(dir, "tiles-"));
    writeFileSync(join(out, "wilayah.pmtiles"), "tiles");
    return [
      out,
      { tiles_id: seedTilesId(SEED_DIR), file: "wilayah.pmtiles", bytes: 5, tiles: 1, contents: 1, seconds: 0, gzip: { median: 1, p99: 1, max: 1 } } as never,
    ];
  },
};
const quiet = () => undefined;

// Each wrangler call starts a node process: a few seconds a test, up to half a minute on a busy shared machine.
describe("npm run deploy against a stand-in wrangler", { timeout: 120_000 }, () => {
  it("plans everything on an empty account, asking only, and changes nothing", async () => {
    setAccount({ databases: [], buckets: [], queues: [], worker: false, secrets: [], migrated: false, dataset: [], objects: [] });
    writeFileSync(logFile, "");
    const before = readFileSync(stateFile, "utf8");
    const lines: string[] = [];
    const steps = await deploy({ plan: true }, work, (l) => lines.push(l));
    expect(readFileSync(stateFile, "utf8")).toBe(before);
    const asked = calls();
    expect(asked.filter((c) => CHANGES.test(c))).toEqual([]);
    expect(asked).toEqual([
      "whoami",
      "d1 list --json",
      "r2 bucket info wilayah-exports",
      "r2 bucket info wilayah-jobs",
      "queues info wilayah-webhooks",
      "queues info wilayah-jobs",
      "secret list --format json",
    ]);
    expect(steps.map((s) => [s.what, s.run !== null])).toEqual([
      ["D1 database wilayah", true],
      ["R2 bucket wilayah-exports", true],
      ["R2 bucket wilayah-jobs", true],
      ["queue wilayah-webhooks", true],
      ["queue wilayah-jobs", true],
      ["secrets", true],
      ["D1 migrations", true],
      ["the seed", true],
      [`bulk exports ${seedExportId(SEED_DIR)}`, true],
      [`vector tiles ${seedTilesId(SEED_DIR)}`, true],
      ["the Worker", true],
    ]);
    expect(lines.filter((l) => l.startsWith("would "))).toHaveLength(11);
    expect(lines.join("\n")).toContain("JWT_SECRET, WEBHOOK_SECRET_KEY not set");
    expect(lines.join("\n")).toMatch(/KV namespace of KV when absent/);
  });

  it("provisions, migrates, loads, uploads and deploys in that order; the secrets generated go with the deploy", async () => {
    await deploy({ plan: false }, work, quiet);
    expect(changes()).toEqual([
      "d1 create wilayah",
      "r2 bucket create wilayah-exports",
      "r2 bucket create wilayah-jobs",
      "queues create wilayah-webhooks",
      "queues create wilayah-jobs",
      "d1 migrations apply DB --remote",
      "(local seed:apply)",
      "(local exports build)",
      expect.stringMatching(new RegExp(`^r2 object put wilayah-exports/wilayah/${LAYOUT}/\\w+/wilayah-provinsi\\.csv --remote --file `)),
      expect.stringMatching(new RegExp(`^r2 object put wilayah-exports/wilayah/${LAYOUT}/\\w+/manifest\\.json --remote --file `)),
      "(local tiles build)",
      expect.stringMatching(/^r2 object put wilayah-exports\/tiles\/v1\/\w+\/wilayah\.pmtiles --remote/),
      expect.stringMatching(/^r2 object put wilayah-exports\/tiles\/v1\/\w+\/report\.json --remote/),
      expect.stringMatching(/^deploy --secrets-file \S+ \[JWT_SECRET,WEBHOOK_SECRET_KEY\]$/),
    ]);
    expect(account().objects).toEqual(expect.arrayContaining([exportsKey, tilesReport]));
  });

  it("run again, skips every step but the Worker's, which keeps the secrets set", async () => {
    const lines: string[] = [];
    const steps = await deploy({ plan: false }, work, (l) => lines.push(l));
    expect(changes()).toEqual(["deploy"]);
    expect(steps.filter((s) => s.run).map((s) => s.what)).toEqual(["the Worker"]);
    expect(lines.filter((l) => l.startsWith("skip "))).toHaveLength(10);
  });

  it("after a new seed: plans and then runs only the seed's swap and the uploads its data lacks", async () => {
    const a = account();
    setAccount({ ...a, dataset: [{ id: "wilayah", checksum: "older" }, LOADED[1]], objects: a.objects.filter((k) => k !== tilesReport) });
    const planned = await deploy({ plan: true }, work, quiet);
    expect(calls().filter((c) => CHANGES.test(c))).toEqual([]);
    expect(planned.filter((s) => s.run).map((s) => s.what)).toEqual(["the seed", `vector tiles ${seedTilesId(SEED_DIR)}`, "the Worker"]);
    await deploy({ plan: false }, work, quiet);
    expect(changes()).toEqual([
      "(local seed:apply)",
      "(local tiles build)",
      expect.stringMatching(/^r2 object put .*wilayah\.pmtiles/),
      expect.stringMatching(/^r2 object put .*report\.json/),
      "deploy",
    ]);
  });

  it("--dry-run only bundles: wrangler deploy --dry-run, nothing asked of the account", () => {
    const r = spawnSync(process.execPath, [join(root, "scripts", "deploy.ts"), "--dry-run", "--outdir", join(dir, "out")], {
      encoding: "utf8",
      env: process.env,
    });
    expect(r.status, r.stderr).toBe(0);
    expect(calls()).toEqual([`deploy --dry-run --outdir ${join(dir, "out")}`]);
  });
});
