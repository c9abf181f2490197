import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { kept } from "./kept.ts";

const dir = mkdtempSync(join(tmpdir(), "kept-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("kept results", () => {
  it("computes once per key, reads it back after, and keeps one per name", async () => {
    let computed = 0;
    const compute = () => ({ n: ++computed, rows: [{ id: "32.73", km: 1.5 }] });
    expect(await kept(dir, "a", "1a", compute)).toEqual({ n: 1, rows: [{ id: "32.73", km: 1.5 }] });
    expect(await kept(dir, "a", "1a", compute)).toEqual({ n: 1, rows: [{ id: "32.73", km: 1.5 }] });
    expect(await kept(dir, "a", "2b", compute)).toMatchObject({ n: 2 });
    expect(readdirSync(dir).filter((f) => f.startsWith("a-"))).toEqual(["a-2b.v8"]);
  });

  it("keeps another name that starts like this one", async () => {
    await kept(dir, "e-more", "1a", () => "other");
    await kept(dir, "e", "1a", () => "first");
    await kept(dir, "e", "2b", () => "second");
    expect(
      readdirSync(dir)
        .filter((f) => f.startsWith("e-"))
        .sort(),
    ).toEqual(["e-2b.v8", "e-more-1a.v8"]);
  });

  it("two callers at once compute it once: the second waits for the first's result", async () => {
    let computed = 0;
    const slow = async () => {
      computed++;
      await new Promise((r) => setTimeout(r, 300));
      return "built";
    };
    expect(await Promise.all([kept(dir, "b", "k", slow), kept(dir, "b", "k", slow)])).toEqual(["built", "built"]);
    expect(computed).toBe(1);
    expect(existsSync(join(dir, "b-k.v8.lock"))).toBe(false);
  });

  it("takes over a lock whose process is gone", async () => {
    const dead = spawnSync(process.execPath, ["-e", "console.log(process.pid)"], { encoding: "utf8" }).stdout.trim();
    writeFileSync(join(dir, "c-k.v8.lock"), dead);
    expect(await kept(dir, "c", "k", () => "mine")).toBe("mine");
  });

  it("a failed computation keeps nothing and leaves no lock: the next caller computes", async () => {
    await expect(
      kept(dir, "d", "k", () => {
        throw new Error("the build failed");
      }),
    ).rejects.toThrow("the build failed");
    expect(readdirSync(dir).filter((f) => f.startsWith("d-"))).toEqual([]);
    expect(await kept(dir, "d", "k", () => "second")).toBe("second");
  });
});
