import { describe, expect, it } from "vitest";
import { devOptions, devSummary } from "./dev-options.ts";

describe("npm run dev's options", () => {
  it("serves 8787 by default; PORT or --port moves it, and --port never reaches wrangler twice", () => {
    expect(devOptions([])).toEqual({ port: 8787, serve: true, verbose: false, wranglerArgs: [] });
    expect(devOptions([], "8879").port).toBe(8879);
    expect(devOptions(["--port", "8879"])).toEqual({ port: 8879, serve: true, verbose: false, wranglerArgs: [] });
    expect(devOptions(["--port=8880", "--ip", "0.0.0.0"], "8879")).toEqual({ port: 8880, serve: true, verbose: false, wranglerArgs: ["--ip", "0.0.0.0"] });
    expect(devOptions(["--no-serve", "--verbose"])).toMatchObject({ serve: false, verbose: true, wranglerArgs: [] });
  });

  it("refuses a port that is no number, naming where it came from", () => {
    expect(() => devOptions(["--port"])).toThrow(/--port must be a port number/);
    expect(() => devOptions(["--port", "abc"])).toThrow(/--port must be a port number/);
    expect(() => devOptions([], "70000")).toThrow(/PORT must be a port number/);
  });

  it("prints the port in every hint, URLs quoted, the key alone on the last line", () => {
    const text = devSummary({ key: "wk_live_abc", keyFile: ".dev-key", port: 8879, serving: true });
    const lines = text.trimEnd().split("\n");
    expect(lines.at(-1)).toBe("wk_live_abc");
    expect(text).not.toContain("8787");
    for (const url of text.match(/http:\/\/[^\s"]+/g) ?? []) {
      expect(url).toContain("localhost:8879");
      expect(text).toContain(`"${url}"`);
    }
    expect(text).toContain("second terminal");
  });
});
