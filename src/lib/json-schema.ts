/** A zod schema as JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), for documents and tool listings. */
import { z } from "zod";

export type JsonSchema = Record<string, unknown>;

const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);

/** zod writes the safe-integer range on every integer; it says nothing a reader needs. */
function dropSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropSafeIntegerBounds);
  if (node === null || typeof node !== "object") return node;
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === "maximum" || k === "minimum") && SAFE_INTEGER_BOUNDS.has(v as number)) continue;
    out[k] = dropSafeIntegerBounds(v);
  }
  return out;
}

export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  return dropSafeIntegerBounds(json) as JsonSchema;
}
