import { describe, expect, it } from "vitest";
import { z } from "zod";
import { portableSchema } from "./portable-schema";

describe("mcp/portable-schema", () => {
  it("writes nullable types as anyOf of single types, at any depth, and leaves the rest", () => {
    const json = z.toJSONSchema(z.object({ a: z.number().nullable(), b: z.object({ c: z.string().nullable() }), d: z.array(z.string()) }));
    const out = portableSchema(json) as any;
    expect(out.properties.a).toEqual({ anyOf: [{ type: "number" }, { type: "null" }] });
    expect(out.properties.b.properties.c).toEqual({ anyOf: [{ type: "string" }, { type: "null" }] });
    expect(out.properties.d).toEqual({ type: "array", items: { type: "string" } });
    expect(JSON.stringify(out)).not.toMatch(/"type":\[/);
  });
});
