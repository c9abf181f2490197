import { describe, expect, it, vi } from "vitest";
import { failureAnswer, failureText, isTransientFailure } from "./dependency";
import { ApiError } from "./errors";
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

describe("failureAnswer", () => {
  it("answers an ApiError as itself, a passing dependency failure 503, anything else a 500 naming nothing of ours; logs the last two", () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
    try {
      const own = new ApiError("NOT_FOUND", "No such thing.");
      expect(failureAnswer(own, { request_id: "r1" })).toBe(own);
      expect(lines).toEqual([]);
      const unavailable = failureAnswer(wrapped(new Error("D1_ERROR: Network connection lost.")), { request_id: "r1", tool: "wilayah_search" });
      expect(unavailable).toMatchObject({ code: "SERVICE_UNAVAILABLE", status: 503, extra: { headers: { "retry-after": "2" } } });
      const ours = failureAnswer(wrapped(new Error("D1_ERROR: no such column: emial")), { request_id: "r1", path: "/x" }, "mcp_tool_error");
      expect(ours).toMatchObject({
        code: "INTERNAL_ERROR",
        status: 500,
        message: "Something went wrong on our side. Quote the request id when you contact support.",
      });
      expect(ours.message).not.toContain("emial");
      expect(lines.map((l) => JSON.parse(l))).toEqual([
        { level: "warn", event: "dependency_unavailable", request_id: "r1", tool: "wilayah_search", error: "Error: D1_ERROR: Network connection lost." },
        expect.objectContaining({ level: "error", event: "mcp_tool_error", request_id: "r1", path: "/x" }),
      ]);
    } finally {
      spy.mockRestore();
    }
  });
});
