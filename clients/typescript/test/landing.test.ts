/**
 * The landing page's TypeScript example (src/site/examples.ts, for this deployment's origin; clients/test.ts
 * passes it as WILAYAH_LANDING_JS): it type-checks against the SDK and runs against the Worker.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

it("the landing page's SDK example type-checks and runs", async () => {
  const code = process.env.WILAYAH_LANDING_JS;
  if (!code || !process.env.WILAYAH_API_KEY) throw new Error("WILAYAH_LANDING_JS / WILAYAH_API_KEY are not set: run clients/test.sh");
  const dir = join(import.meta.dirname, ".readme");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "landing.ts");
  writeFileSync(file, `${code.replaceAll('from "wilayah-api-client"', 'from "../../src/index.js"')}\nexport {};\n`);
  const config = ts.getParsedCommandLineOfConfigFile(
    join(import.meta.dirname, "..", "tsconfig.test.json"),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
  );
  if (!config) throw new Error("tsconfig.test.json is unreadable");
  const program = ts.createProgram([file], { ...config.options, noEmit: true });
  expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
  await import(file);
});
