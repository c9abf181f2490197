import { describe, expect, it } from "vitest";
import { seeded } from "../lib/random";
import { creditsBack, LEASE_MAX_CALLS, leaseSize, passesSpendLimit, priceCalls, quotaAlertsReached, requestLogDays } from "./rules";

describe("credits spent = calls served beyond the quota", () => {
  it("calls within the quota are free; each beyond it costs one credit", () => {
    expect(priceCalls({ calls: 1, quota: 10, used: 3, reserved: 0 })).toEqual({ free: 1, credits: 0, owed: 0 });
    expect(priceCalls({ calls: 1, quota: 10, used: 10, reserved: 0 })).toEqual({ free: 0, credits: 1, owed: 0 });
    expect(priceCalls({ calls: 1, quota: 10, used: 25, reserved: 0 })).toEqual({ free: 0, credits: 1, owed: 0 });
  });

  it("a batch straddling the quota: the part within is free, the rest costs credits", () => {
    expect(priceCalls({ calls: 9, quota: 10, used: 8, reserved: 0 })).toEqual({ free: 2, credits: 7, owed: 0 });
    expect(priceCalls({ calls: 0, quota: 10, used: 8, reserved: 0 })).toEqual({ free: 0, credits: 0, owed: 0 });
  });

  it("calls made to cost credits by leases' reservations are owed back", () => {
    // 115 used + 5 reserved = the quota of 120: the call costs a credit it would not without the lease
    expect(priceCalls({ calls: 1, quota: 120, used: 115, reserved: 5 })).toEqual({ free: 0, credits: 1, owed: 1 });
    // a batch of 4 with 2 left after reservations of 3: 2 free, 2 credits, both owed to the reservation
    expect(priceCalls({ calls: 4, quota: 10, used: 5, reserved: 3 })).toEqual({ free: 2, credits: 2, owed: 2 });
    // beyond the quota even without reservations: nothing is owed
    expect(priceCalls({ calls: 3, quota: 10, used: 10, reserved: 4 })).toEqual({ free: 0, credits: 3, owed: 0 });
  });

  it("a lease ending unused gives back at most what is owed, never more than it left unused", () => {
    expect(creditsBack(3, 1)).toBe(1);
    expect(creditsBack(1, 4)).toBe(1);
    expect(creditsBack(0, 4)).toBe(0);
    expect(creditsBack(5, 0)).toBe(0);
  });

  it("over any sequence of admissions and leases, credits spent equal calls counted beyond the quota", () => {
    // A small simulation: leases reserve, then settle some of their calls; credits are spent and given back by the rules.
    const random = seeded(7);
    for (let run = 0; run < 200; run++) {
      const quota = Math.floor(random() * 50);
      let used = 0;
      let credits = 0;
      let owed = 0;
      const leases: number[] = [];
      for (let step = 0; step < 60; step++) {
        const reserved = leases.reduce((a, b) => a + b, 0);
        if (random() < 0.3 && leases.length > 0) {
          // a lease settles: some of its calls were served
          const calls = leases.shift() as number;
          const served = Math.floor(random() * (calls + 1));
          used += served;
          const back = creditsBack(calls - served, owed);
          owed -= back;
          credits -= back;
        } else if (random() < 0.2 && quota - used - reserved > 3) {
          leases.push(1 + Math.floor(random() * 3));
        } else {
          const calls = 1 + Math.floor(random() * 3);
          const price = priceCalls({ calls, quota, used, reserved });
          used += calls;
          credits += price.credits;
          owed += price.owed;
        }
      }
      // every lease ends (settled with nothing more served, or by time)
      for (const calls of leases) {
        const back = creditsBack(calls, owed);
        owed -= back;
        credits -= back;
      }
      expect(credits, `run ${run}`).toBe(Math.max(0, used - quota));
    }
  });
});

describe("lease size", () => {
  it("a twentieth of what is left, at most LEASE_MAX_CALLS, none below 5", () => {
    expect(leaseSize(121)).toBe(6);
    expect(leaseSize(120)).toBe(5);
    expect(leaseSize(100)).toBe(0);
    expect(leaseSize(0)).toBe(0);
    expect(leaseSize(1_000_000)).toBe(LEASE_MAX_CALLS);
  });
});

describe("alerts and the spend limit", () => {
  it("quota alerts at 80% and 100%, both when a batch crosses both", () => {
    expect(quotaAlertsReached(799, 1000)).toEqual([]);
    expect(quotaAlertsReached(800, 1000)).toEqual([80]);
    expect(quotaAlertsReached(1000, 1000)).toEqual([80, 100]);
    expect(quotaAlertsReached(5, 0)).toEqual([]);
  });

  it("the spend limit: credits beyond it refused, none without a limit, a limit of 0 spends none", () => {
    expect(passesSpendLimit(null, 1e9, 1)).toBe(false);
    expect(passesSpendLimit(100, 99, 1)).toBe(false);
    expect(passesSpendLimit(100, 100, 1)).toBe(true);
    expect(passesSpendLimit(100, 95, 10)).toBe(true);
    expect(passesSpendLimit(0, 0, 1)).toBe(true);
    expect(passesSpendLimit(0, 0, 0)).toBe(false);
  });

  it("the request log keeps 7 days, longer on larger plans", () => {
    expect([requestLogDays("free"), requestLogDays("starter"), requestLogDays("pro"), requestLogDays("business"), requestLogDays("internal")]).toEqual([
      7, 14, 30, 90, 7,
    ]);
  });
});
