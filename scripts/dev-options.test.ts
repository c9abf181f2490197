import { describe, expect, it } from "vitest";
import { devOptions, devSummary } from "./dev-options.ts";

describe("npm run dev's options", () => {
  it("serves 8787 by default; PORT or --port moves it, and --port never reaches wrangler twice", () => {
    const plain = { serve: true, verbose: false, exports: false, tiles: false, wranglerArgs: [] };
    expect(devOptions([])).toEqual({ ...plain, port: 8787 });
    expect(devOptions([], "8879").port).toBe(8879);
    expect(devOptions(["--port", "8879"])).toEqual({ ...plain, port: 8879 });
    expect(devOptions(["--port=8880", "--ip", "0.0.0.0"], "8879")).toEqual({ ...plain, port: 8880, wranglerArgs: ["--ip", "0.0.0.0"] });
    expect(devOptions(["--no-serve", "--verbose"])).toMatchObject({ serve: false, verbose: true, wranglerArgs: [] });
  });

  it("prepares the bulk exports and the tiles in the foreground only when asked, with --no-serve", () => {
    expect(devOptions(["--no-serve"])).toMatchObject({ exports: false, tiles: false });
    expect(devOptions(["--no-serve", "--exports", "--tiles"])).toMatchObject({ serve: false, exports: true, tiles: true, wranglerArgs: [] });
    expect(() => devOptions(["--exports"])).toThrow(/go with --no-serve/);
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
    expect(text).toMatch(/in the background/);
  });
});
