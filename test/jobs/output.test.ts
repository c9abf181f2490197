/** A chunk's result streamed to the real (local) R2 a slice at a time: the same object as one put, and a put that fails does not hang. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { putLinesPaced } from "../../src/jobs/output";

describe("jobs/output: putLinesPaced", () => {
  it("stores the lines joined, each followed by a line break, byte for byte", async () => {
    const lines = Array.from({ length: 1_000 }, (_, i) =>
      JSON.stringify({ row: i + 1, input: { alamat: `Jl. Ṣoekarno–Hatta ${i}, Kota Bandung 🏠` }, answer: { level: "kelurahan" } }),
    );
    await putLinesPaced(env.JOBS, "test/output/a", lines);
    const got = await env.JOBS.get("test/output/a");
    expect(await got?.text()).toBe(`${lines.join("\n")}\n`);
    expect(got?.size).toBe(new TextEncoder().encode(`${lines.join("\n")}\n`).length);
    await env.JOBS.delete("test/output/a");
  });

  it("a put refused before it reads the body is an error, not a wait for ever", async () => {
    const failing = {
      put: async () => {
        throw new Error("Network connection lost.");
      },
    } as unknown as R2Bucket;
    const lines = Array.from({ length: 1_000 }, (_, i) => `line ${i} ${"x".repeat(500)}`);
    await expect(putLinesPaced(failing, "test/output/b", lines)).rejects.toThrow("Network connection lost.");
  });
});
