import { describe, expect, it } from "vitest";
import { failureText, isTransientFailure } from "./dependency";
import { errorText } from "./log";

/** As drizzle reports a failed D1 statement: its own message (the SQL and values), D1's error as the cause. */
const wrapped = (cause: Error) => new Error("Failed query: SELECT * FROM users WHERE email = ?\nparams: someone@example.com", { cause });

describe("dependency failures", () => {
  it("are recognised through the query builder's wrapper", () => {
    expect(isTransientFailure(wrapped(new Error("D1_ERROR: Network connection lost.")))).toBe(true);
    expect(isTransientFailure(wrapped(new Error("D1_ERROR: UNIQUE constraint failed: users.email")))).toBe(false);
  });

  it("are logged with the platform's message, not the statement and its values", () => {
    const text = failureText(wrapped(new Error("D1_ERROR: Network connection lost.")));
    expect(text).toBe("Error: D1_ERROR: Network connection lost.");
  });

  it("other errors are logged without the statement's values", () => {
    const text = errorText(wrapped(new Error("D1_ERROR: UNIQUE constraint failed: users.email")));
    expect(text).toContain("Failed query: SELECT");
    expect(text).not.toContain("someone@example.com");
  });
});
