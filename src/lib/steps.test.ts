import { describe, expect, it } from "vitest";
import { runSteps } from "./steps";

describe("runSteps", () => {
  it("runs the steps in order; when one fails, undoes those done in reverse and throws its failure as `failed` says", async () => {
    const seen: string[] = [];
    const step = (name: string, fail = false) => ({
      run: async () => {
        seen.push(`run ${name}`);
        if (fail) throw new Error(name);
      },
      undo: async () => {
        seen.push(`undo ${name}`);
        if (name === "b") throw new Error("undo b failed"); // ignored: the next undo still runs
      },
      failed: (e: unknown) => new Error(`failed: ${(e as Error).message}`),
    });
    await expect(runSteps([step("a"), step("b"), step("c", true), step("d")])).rejects.toThrow("failed: c");
    expect(seen).toEqual(["run a", "run b", "run c", "undo b", "undo a"]);
  });

  it("throws a failure as it came when the step does not say, and runs every step when none fails", async () => {
    const boom = new Error("boom");
    await expect(runSteps([{ run: async () => Promise.reject(boom) }])).rejects.toBe(boom);
    const seen: number[] = [];
    await runSteps([1, 2, 3].map((n) => ({ run: async () => seen.push(n), undo: async () => seen.push(-n) })));
    expect(seen).toEqual([1, 2, 3]);
  });
});
