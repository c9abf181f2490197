import { describe, expect, it } from "vitest";
import { addMonth, addMonths } from "./months";

describe("billing/months", () => {
  const t = (s: string) => Date.parse(s);
  it("adds calendar months, clamping to the last day of shorter months", () => {
    expect(new Date(addMonth(t("2026-01-15T10:00:00Z"))).toISOString()).toBe("2026-02-15T10:00:00.000Z");
    expect(new Date(addMonth(t("2026-01-31T10:00:00Z"))).toISOString()).toBe("2026-02-28T10:00:00.000Z");
    expect(new Date(addMonth(t("2028-01-31T00:00:00Z"))).toISOString()).toBe("2028-02-29T00:00:00.000Z");
    expect(new Date(addMonth(t("2026-12-31T23:59:59Z"))).toISOString()).toBe("2027-01-31T23:59:59.000Z");
  });

  it("several months count from the start day, not month by month (Jan 31 + 2 = Mar 31)", () => {
    expect(new Date(addMonths(t("2026-01-31T00:00:00Z"), 2)).toISOString()).toBe("2026-03-31T00:00:00.000Z");
    expect(new Date(addMonths(t("2026-11-22T00:00:00Z"), 36)).toISOString()).toBe("2029-11-22T00:00:00.000Z");
  });
});
