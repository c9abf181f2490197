import { describe, expect, it } from "vitest";
import { z } from "zod";
import { typedQuery } from "./query";

describe("http/query typedQuery", () => {
  const schema = z.strictObject({ page: z.int().positive().default(1), q: z.string().optional() });

  it("turns plain decimal digits into integers for integer fields only", () => {
    expect(typedQuery(schema, { page: "3", q: "12" })).toEqual({ page: 3, q: "12" });
  });

  it("leaves every other spelling of a number as text, so validation refuses it", () => {
    for (const v of ["0x10", "1e3", "+3", " 2 ", "2.0", "-1", ""]) {
      expect(typedQuery(schema, { page: v }).page, v).toBe(v);
      expect(schema.safeParse(typedQuery(schema, { page: v })).success, v).toBe(false);
    }
  });

  it("refuses a parameter given twice, naming it", () => {
    expect(() => typedQuery(schema, { q: ["a", "b"] })).toThrow(/"q" is given 2 times/);
  });
});
