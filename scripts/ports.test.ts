import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePorts, suitePorts } from "./ports.ts";

afterEach(() => {
  delete process.env.TEST_SUITE_PORT;
});

describe("ports of a suite's own", () => {
  it("finds distinct ports that can be listened on at once", async () => {
    const ports = await freePorts(4);
    expect(new Set(ports).size).toBe(4);
    const servers = await Promise.all(
      ports.map(
        (p) =>
          new Promise<ReturnType<typeof createServer>>((r) => {
            const s = createServer();
            s.listen(p, "127.0.0.1", () => r(s));
          }),
      ),
    );
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  });

  it("takes a range from the variable when it is set, and refuses one that is no port", async () => {
    process.env.TEST_SUITE_PORT = "8850";
    expect(await suitePorts("TEST_SUITE_PORT", 3)).toEqual([8850, 8851, 8852]);
    process.env.TEST_SUITE_PORT = "http://x";
    await expect(suitePorts("TEST_SUITE_PORT", 1)).rejects.toThrow(/TEST_SUITE_PORT must be a port number/);
    delete process.env.TEST_SUITE_PORT;
    expect(await suitePorts("TEST_SUITE_PORT", 2)).toHaveLength(2);
  });
});
