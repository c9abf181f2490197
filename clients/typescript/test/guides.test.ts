/**
 * The guides' TypeScript samples (docs/api.md fences `ts sdk`, taken from src/site/guides.json, which
 * scripts/guides.ts builds from it): each type-checks against the SDK and runs against the Worker.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

type Sample = { page: string; lang: string; annotation: string; code: string };
const guides = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "..", "src", "site", "guides.json"), "utf8")) as { samples: Sample[] };
const out = join(import.meta.dirname, ".readme");
const samples = guides.samples
  .filter((s) => s.lang === "ts" && s.annotation === "sdk")
  .map((s, i) => ({ ...s, file: join(out, `guide-${s.page}-${i + 1}.ts`) }));
mkdirSync(out, { recursive: true });
for (const s of samples) writeFileSync(s.file, `${s.code.replaceAll('from "wilayah-api-client"', 'from "../../src/index.js"')}\nexport {};\n`);

describe("the guides' TypeScript samples", () => {
  it("exist and type-check", () => {
    expect(samples.length).toBeGreaterThanOrEqual(1);
    const config = ts.getParsedCommandLineOfConfigFile(
      join(import.meta.dirname, "..", "tsconfig.test.json"),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
    );
    if (!config) throw new Error("tsconfig.test.json is unreadable");
    const program = ts.createProgram(
      samples.map((s) => s.file),
      { ...config.options, noEmit: true },
    );
    expect(ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`)).toEqual([]);
  });

  for (const s of samples) {
    it(`runs ${s.file.slice(out.length + 1)}`, async () => {
      if (!process.env.WILAYAH_BASE_URL || !process.env.WILAYAH_API_KEY) throw new Error("WILAYAH_BASE_URL / WILAYAH_API_KEY are not set: run clients/test.sh");
      await import(s.file);
    });
  }
});
