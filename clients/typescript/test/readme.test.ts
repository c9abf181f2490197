/**
 * Every ```ts block of README.md is type-checked, and run against the Worker unless its fence says
 * `no-run`: the blocks are written to test/.readme/ (git-ignored) with the package's name mapped to
 * src/index.ts, compiled with the TypeScript API, then imported one by one.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const here = import.meta.dirname;
const pkg = join(here, "..");
const out = join(here, ".readme");
const blocks = [...readFileSync(join(pkg, "README.md"), "utf8").matchAll(/^```ts([^\n]*)\n([\s\S]*?)^```$/gm)].map((m, i) => ({
  file: join(out, `block-${String(i + 1).padStart(2, "0")}.ts`),
  run: !/\bno-run\b/.test(m[1]),
  code: m[2].replaceAll('from "wilayah-api-client"', 'from "../../src/index.js"'),
}));
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const b of blocks) writeFileSync(b.file, `${b.code}\nexport {};\n`);

describe("README.md", () => {
  it("has examples, and they type-check", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    const config = ts.getParsedCommandLineOfConfigFile(join(pkg, "tsconfig.test.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
    const program = ts.createProgram(
      blocks.map((b) => b.file),
      { ...config.options, noEmit: true },
    );
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file ? `${d.file.fileName.slice(out.length + 1)}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(problems).toEqual([]);
  });

  for (const b of blocks.filter((b) => b.run)) {
    it(`runs ${b.file.slice(out.length + 1)}`, async () => {
      if (!process.env.WILAYAH_BASE_URL || !process.env.WILAYAH_API_KEY) throw new Error("WILAYAH_BASE_URL / WILAYAH_API_KEY are not set: run clients/test.sh");
      await import(b.file);
    });
  }
});
