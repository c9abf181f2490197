/**
 * A data endpoint's OpenAPI operation, from its declaration: path and query parameters from the
 * input schema, the answer from the output schema, the description the MCP tool shows too.
 */
import { z } from "zod";
import { operation } from "../http/docs";
import { toJsonSchema } from "../lib/json-schema";
import type { DataContext } from "./context";
import type { DataEndpoint } from "./endpoint";
import { parseInput } from "./run";

const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** A query string carries text: of a schema that also takes JSON values (flags), only the text form applies. */
function asQueryText(schema: Record<string, unknown>): Record<string, unknown> {
  const texts = Array.isArray(schema.anyOf) ? (schema.anyOf as Record<string, unknown>[]).filter((s) => s.type === "string") : [];
  return texts.length === 1 ? { ...texts[0], ...(schema.default !== undefined ? { default: schema.default } : {}) } : schema;
}

/** The first sentence of a description, as a summary ("e.g. 32" does not end one). */
const firstSentence = (text: string) => text.match(/^.*?[.!?](?=\s+[A-Z(]|$)/)?.[0] ?? text;

/** Each endpoint's example answer, computed by `loadExamples` before the document is generated. */
const exampleAnswers = new WeakMap<DataEndpoint, unknown>();

/**
 * Runs every declared example request against the loaded data (no cache, no metering), so the
 * document shows real answers. An example that fails is left out, never invented.
 */
export async function loadExamples(endpoints: readonly DataEndpoint[], ctx: DataContext): Promise<void> {
  await Promise.all(
    endpoints
      .filter((ep) => ep.example && !exampleAnswers.has(ep))
      .map(async (ep) => {
        try {
          exampleAnswers.set(ep, await ep.handler(parseInput(ep, ep.example), ctx));
        } catch {
          // no example rather than a wrong one
        }
      }),
  );
}

export function endpointOperation(ep: DataEndpoint) {
  const pathParams = new Set([...ep.path.matchAll(/:(\w+)/g)].map((m) => m[1]));
  const post = ep.method === "POST";
  const fields = Object.entries(ep.input.shape as Record<string, z.ZodType>).filter(([name]) => !post || pathParams.has(name));
  const parameters = fields.map(([name, field]) => {
    const { description, ...schema } = toJsonSchema(field, "input");
    const inPath = pathParams.has(name);
    return {
      in: inPath ? "path" : "query",
      name,
      required: inPath || !field.safeParse(undefined).success,
      ...(description ? { description } : {}),
      schema: inPath ? schema : asQueryText(schema),
      ...(ep.example && name in ep.example ? { example: ep.example[name] } : {}),
    };
  });
  // A POST's body: the input's fields that are not path parameters (declarations use strict objects).
  const body = post
    ? z.strictObject(Object.fromEntries(Object.entries(ep.input.shape as Record<string, z.ZodType>).filter(([name]) => !pathParams.has(name))))
    : undefined;
  return operation({
    tags: [ep.tag ?? "Regions"],
    summary: firstSentence(ep.description),
    description: `${ep.description}${ep.tool ? `\n\nAlso the MCP tool \`${ep.tool}\`.` : ""}`,
    caller: "apiKey",
    input: post ? "json" : "query",
    parameters,
    ...(body ? { body: { schema: body, description: "The input, as a JSON object", example: ep.example } } : {}),
    ok: {
      description: "The answer; `data` (and `meta` for lists)",
      schema: ep.output,
      example: exampleAnswers.get(ep),
      headers: { "x-data-version": header("DataVersion"), "x-cache": header("Cache") },
    },
    errors: ep.errors,
  });
}
