import { describe, expect, it } from "vitest";
import { iso, spokenDuration, utcDay } from "./time";

describe("lib/time", () => {
  it("says a duration in its largest whole unit", () => {
    expect(spokenDuration(30 * 60 * 1000)).toBe("30 minutes");
    expect(spokenDuration(24 * 3600 * 1000)).toBe("24 hours");
    expect(spokenDuration(48 * 3600 * 1000)).toBe("48 hours");
    expect(spokenDuration(3600 * 1000)).toBe("1 hour");
    expect(spokenDuration(90 * 60 * 1000)).toBe("90 minutes");
    expect(spokenDuration(60 * 1000)).toBe("1 minute");
    expect(spokenDuration(90 * 1000)).toBe("90 seconds");
    expect(spokenDuration(1000)).toBe("1 second");
    expect(spokenDuration(1500)).toBe("1500 ms");
  });

  it("writes times as ISO 8601 in UTC, and their UTC day", () => {
    expect(iso(null)).toBeNull();
    expect(iso(0)).toBe("1970-01-01T00:00:00.000Z");
    expect(utcDay(Date.UTC(2026, 0, 5, 23, 59))).toBe("2026-01-05");
  });
});
