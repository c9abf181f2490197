/**
 * Issue 33, section 7 (High): the account object reloading its plan (after a minute, or when it
 * wakes) while concurrent batches arrive. Production D1 answers in milliseconds, local D1 within the
 * same tick, so the fault layer slows the object's D1 reads: every batch that arrives during the
 * reload must still be decided on the counts of the ones admitted before it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { expectError, seedUserWithKey } from "../helpers";
import { callWith, drain, FaultPlan, faultyAccountObject } from "./inject";

const BATCHES = 12;
const CODES = 400;

describe("the account object reloading its plan under concurrent batches", () => {
  it("serves no more free calls than the quota, and no credits are spent that were not there", async () => {
    // Free plan: 1,000 calls a month, no credits: every call served is a free one.
    const { userId, secret } = await seedUserWithKey({ plan: "free" });
    const slow = new FaultPlan(33, { rate: 1, targets: ["d1"], kinds: ["slow"], slowMs: 30 });
    // Woken now, the object has no plan yet: the first admission reads it (slowly) from D1.
    await faultyAccountObject(userId, slow);
    const codes = Array.from({ length: CODES }, (_, i) => `32.73.${String((i % 30) + 1).padStart(2, "0")}`);
    const answers = await Promise.all(
      Array.from({ length: BATCHES }, () => callWith(env, "/api/v1/wilayah/convert", { method: "POST", key: secret, json: { codes } })),
    );
    const statuses = await Promise.all(
      answers.map(async (r) => {
        await r.arrayBuffer();
        return r.status;
      }),
    );
    await drain();
    const served = statuses.filter((s) => s === 200).length * CODES;
    expect(
      statuses.every((s) => s === 200 || s === 402),
      statuses.join(","),
    ).toBe(true);
    expect(slow.injected, "the plan read was slowed").toBeGreaterThan(0);
    expect(served, `served ${served} calls free`).toBeLessThanOrEqual(1000);
    expect(served).toBe(800);
  });

  it("a suspension that lands during the reload is not overwritten by the older plan read", async () => {
    const { userId, secret } = await seedUserWithKey({ plan: "free" });
    const slow = new FaultPlan(34, { rate: 1, targets: ["d1"], kinds: ["slow"], slowMs: 300 });
    await faultyAccountObject(userId, slow);
    const convert = () => callWith(env, "/api/v1/wilayah/convert", { method: "POST", key: secret, json: { codes: ["32.73", "32.74"] } });
    const first = convert();
    // The object is now reading the account (still active) from D1; the admin suspends it meanwhile.
    await new Promise((r) => setTimeout(r, 150));
    await env.DB.prepare("UPDATE users SET status = 'suspended' WHERE id = ?").bind(userId).run();
    await env.ACCOUNT.get(env.ACCOUNT.idFromName(userId)).refresh();
    await expectError(await first, 403, "ACCOUNT_SUSPENDED");
    await expectError(await convert(), 403, "ACCOUNT_SUSPENDED");
    await drain();
  });
});
