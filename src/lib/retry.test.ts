import { afterEach, describe, expect, it, vi } from "vitest";
import { retried } from "./retry";

describe("retried", () => {
  afterEach(() => vi.restoreAllMocks());

  it("stops at the first success", async () => {
    let tries = 0;
    const ok = await retried(
      async () => {
        if (++tries < 3) throw new Error("busy");
      },
      { attempts: 4, backoffMs: 1, event: "x" },
    );
    expect({ ok, tries }).toEqual({ ok: true, tries: 3 });
  });

  it("gives up after `attempts` and logs the event with its fields, never throwing", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    let tries = 0;
    const ok = await retried(
      async () => {
        tries++;
        throw new Error("down");
      },
      { attempts: 2, backoffMs: 0, event: "thing_failed", fields: { id: "a" } },
    );
    expect({ ok, tries }).toEqual({ ok: false, tries: 2 });
    expect(JSON.parse(String(logged.mock.calls[0][0]))).toMatchObject({ level: "error", event: "thing_failed", id: "a", error: "Error: down" });
  });
});
