/**
 * Tool JSON Schemas in the form every MCP client accepts. zod writes a nullable field as
 * `type: ["string", "null"]`; function-calling dialects without union types reject a `type` array
 * (the MCP Inspector's --strict check warns about it). The same meaning as `anyOf` of single types.
 */
type Json = Record<string, unknown>;

export function portableSchema(schema: Json): Json {
  return walk(schema) as Json;
}

function walk(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(walk);
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === "properties" || k === "$defs" || k === "definitions" ? mapValues(v as Json) : walk(v);
  if (Array.isArray(out.type)) {
    const { type, ...rest } = out as { type: string[] } & Json;
    return { ...rest, anyOf: type.map((t) => ({ type: t })) };
  }
  return out;
}

function mapValues(obj: Json): Json {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, walk(v)]));
}
