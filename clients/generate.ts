/**
 * Regenerates both SDKs from the API document, or checks that the committed ones match it.
 *
 *   node scripts/boot.mjs node clients/generate.ts [--from URL|FILE]           # regenerate
 *   node scripts/boot.mjs node clients/generate.ts --check [--from URL|FILE]   # exit 1 on any difference
 *
 * --from: the document (default http://127.0.0.1:8787/openapi.json, the Worker of `npm run dev`).
 * Its `servers` name the origin it was fetched from; they are replaced by the one fixed local
 * server, so the output does not depend on the machine. Both generators write into a temporary
 * folder first, which is then copied into place or compared with what is committed (clients/test.sh
 * runs the check against its own Worker in CI).
 *
 * TypeScript: @hey-api/openapi-ts, pinned in clients/typescript/package.json (installed there with
 * `npm ci` when missing) → clients/typescript/src/generated/. Python: clients/generate-python.ts
 * (openapi-python-client cannot be installed here: clients/python/README.md) →
 * clients/python/src/wilayah_api/{models.py,_client.py}.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { pythonSdk } from "./generate-python.ts";

const clients = dirname(fileURLToPath(import.meta.url));
const ts = join(clients, "typescript");
const tsOut = join(ts, "src", "generated");
const pyOut = join(clients, "python", "src", "wilayah_api");

/** The document as the generators read it: `servers` fixed to the local one. */
export function normalizeDocument(doc: Record<string, unknown>): Record<string, unknown> {
  return { ...doc, servers: [{ url: "http://localhost:8787", description: "Local (npm run dev)" }] };
}

async function readDocument(from: string): Promise<Record<string, unknown>> {
  if (/^https?:\/\//.test(from)) {
    const res = await fetch(from);
    if (!res.ok) throw new Error(`GET ${from}: ${res.status}`);
    return normalizeDocument((await res.json()) as Record<string, unknown>);
  }
  return normalizeDocument(JSON.parse(readFileSync(from, "utf8")));
}

function sh(command: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const r = spawnSync(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  if (r.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout ?? ""}${r.stderr ?? ""}`);
  return r.stdout;
}

function generateTypeScript(docFile: string, out: string) {
  if (!existsSync(join(ts, "node_modules", ".bin", "openapi-ts"))) sh("npm", ["ci", "--no-audit", "--no-fund"], { cwd: ts });
  sh(join(ts, "node_modules", ".bin", "openapi-ts"), [], { cwd: ts, env: { ...process.env, OPENAPI_TS_INPUT: docFile, OPENAPI_TS_OUTPUT: out } });
}

/** Relative path -> content of every file under dir. */
function tree(dir: string, base = dir, files = new Map<string, string>()): Map<string, string> {
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) tree(full, base, files);
    else files.set(relative(base, full), readFileSync(full, "utf8"));
  }
  return files;
}

function differences(expected: Map<string, string>, actual: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [f, text] of expected) if (actual.get(f) !== text) out.push(actual.has(f) ? `changed: ${f}` : `missing: ${f}`);
  for (const f of actual.keys()) if (!expected.has(f)) out.push(`not generated: ${f}`);
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const fromAt = args.indexOf("--from");
  const from = fromAt >= 0 ? args[fromAt + 1] : "http://127.0.0.1:8787/openapi.json";
  const document = await readDocument(from);
  const work = mkdtempSync(join(tmpdir(), "wilayah-clients-"));
  try {
    const docFile = join(work, "openapi.json");
    writeFileSync(docFile, `${JSON.stringify(document, null, 2)}\n`);
    generateTypeScript(docFile, join(work, "ts"));
    const python = pythonSdk(document as never);

    if (check) {
      const committedPy = new Map([...python.keys()].map((f) => [f, existsSync(join(pyOut, f)) ? readFileSync(join(pyOut, f), "utf8") : ""]));
      const problems = [
        ...differences(tree(join(work, "ts")), tree(tsOut)).map((d) => `typescript ${d}`),
        ...differences(python, committedPy).map((d) => `python ${d}`),
      ];
      if (problems.length) {
        console.error(`generate --check: the committed SDKs do not match the API document (${from}):\n  ${problems.slice(0, 40).join("\n  ")}`);
        console.error("Regenerate: node scripts/boot.mjs node clients/generate.ts --from <the Worker>/openapi.json (npm run dev serves http://127.0.0.1:8787)");
        process.exitCode = 1;
      } else console.log(`generate --check: both SDKs match the API document (${from})`);
      return;
    }

    rmSync(tsOut, { recursive: true, force: true });
    cpSync(join(work, "ts"), tsOut, { recursive: true });
    mkdirSync(pyOut, { recursive: true });
    for (const [f, text] of python) writeFileSync(join(pyOut, f), text);
    console.log(`generate: both SDKs regenerated from ${from}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
