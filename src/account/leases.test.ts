import { describe, expect, it } from "vitest";
import { HeldLease } from "./leases";

describe("account/leases HeldLease", () => {
  const lease = (calls: number) => new HeldLease("user_1", { id: "l1", calls, ms: 1000, revoked: ["k_revoked"] }, 1_000);

  it("admits up to its calls within its time, per key, endpoint and day", async () => {
    const l = lease(2);
    expect(l.usable(1_500)).toBe(true);
    l.take("k1", "/a", 1_100);
    expect(l.exhausted).toBe(false);
    l.take("k2", "/a", 1_200);
    expect(l.exhausted).toBe(true);
    expect(l.usable(1_300)).toBe(false);
    expect(lease(5).usable(2_000)).toBe(false); // time is over
    let sent: unknown;
    await l.settle(async (counts) => {
      sent = counts;
    });
    expect(sent).toEqual([
      { key_id: "k1", endpoint: "/a", day: "1970-01-01", count: 1, last_at: 1_100, origin: null },
      { key_id: "k2", endpoint: "/a", day: "1970-01-01", count: 1, last_at: 1_200, origin: null },
    ]);
  });

  it("a call given back before settling is not reported; after settling it cannot be given back here", async () => {
    const l = lease(3);
    const back = l.take("k1", "/a", 1_100);
    expect(back()).toBe(true);
    const late = l.take("k1", "/a", 1_100);
    let sends = 0;
    const first = l.settle(async (counts) => {
      sends++;
      expect(counts).toEqual([{ key_id: "k1", endpoint: "/a", day: "1970-01-01", count: 1, last_at: 1_100, origin: null }]);
    });
    expect(l.settle(async () => void sends++)).toBe(first); // settles once
    await first;
    expect(sends).toBe(1);
    expect(late()).toBe(false);
    expect(l.usable(1_200)).toBe(false);
  });

  it("reports the origin of each key's latest call (a publishable key's last use)", async () => {
    const l = lease(3);
    l.take("k1", "/a", 1_100, "https://a.example");
    l.take("k1", "/a", 1_300, "https://b.example");
    l.take("k1", "/a", 1_200, "https://c.example"); // earlier than the latest: not the last use
    let sent: unknown;
    await l.settle(async (counts) => {
      sent = counts;
    });
    expect(sent).toEqual([{ key_id: "k1", endpoint: "/a", day: "1970-01-01", count: 3, last_at: 1_300, origin: "https://b.example" }]);
  });

  it("refuses the keys revoked by the time it was granted", () => {
    const l = lease(2);
    expect(l.refuses("k_revoked")).toBe(true);
    expect(l.refuses("k1")).toBe(false);
  });
});
