/**
 * A data endpoint's OpenAPI operation, from its declaration: path and query parameters from the
 * input schema, the answer from the output schema, the description the MCP tool shows too.
 */
import { z } from "zod";
import { regionReads } from "../db/reads";
import { operation } from "../http/docs";
import { toJsonSchema } from "../lib/json-schema";
import type { DataContext } from "./context";
import { type DataEndpoint, endpointTag, isFileEndpoint, type JsonEndpoint } from "./endpoint";
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
const exampleAnswers = new WeakMap<JsonEndpoint, unknown>();

/**
 * Runs every declared example request against the loaded data (no cache, no metering), so the
 * document shows real answers. An example that fails is left out, never invented.
 */
export async function loadExamples(endpoints: readonly DataEndpoint[], ctx: DataContext): Promise<void> {
  await Promise.all(
    endpoints
      .filter((ep): ep is JsonEndpoint => !isFileEndpoint(ep) && ep.example !== undefined && !exampleAnswers.has(ep))
      .map(async (ep) => {
        try {
          exampleAnswers.set(ep, await ep.handler(parseInput(ep, ep.example), { ...ctx, reads: regionReads(ctx.env) }));
        } catch {
          // no example rather than a wrong one
        }
      }),
  );
}

/**
 * Names that read as what the endpoint does, where the rule below would read as its path. Only
 * actions: resources are named by the rule. Renaming an operation renames an SDK function (a
 * breaking change for SDK users): test/openapi/openapi.test.ts lists every name.
 */
const ACTIONS: Record<string, string> = {
  "GET /wilayah/search": "searchRegions",
  "GET /wilayah/reverse": "reverseGeocode",
  "POST /wilayah/nik": "decodeNik",
  "POST /wilayah/convert": "convertCodes",
  "GET /wilayah/address": "resolveAddress",
  "POST /wilayah/address": "resolveAddresses",
};

const pascal = (word: string) => word.replace(/(^|[-_])([a-z0-9])/g, (_, __, c: string) => c.toUpperCase());

/**
 * The operation's name in the API document (`operationId`), which the SDK generators make the
 * function's name: the verb, then the path's fixed segments after /api/v1 in PascalCase, without the
 * leading `wilayah` when another segment follows. The verb is `list` for a GET answering a paged
 * list (`meta`), `get` for another GET (a file too), `post` for a POST; an action in ACTIONS keeps
 * its name. `/wilayah/kabupaten` → listKabupaten, `/wilayah/kabupaten/:id` → getKabupaten,
 * `/wilayah/:id` → getWilayah, `/wilayah/:id/boundary` → getBoundary, `/gempa/terkini` → getGempaTerkini.
 */
export function operationId(ep: DataEndpoint): string {
  const method = ep.method ?? "GET";
  const action = ACTIONS[`${method} ${ep.path}`];
  if (action) return action;
  const words = ep.path.split("/").filter((w) => w !== "" && !w.startsWith(":"));
  const noun = (words.length > 1 && words[0] === "wilayah" ? words.slice(1) : words).map(pascal).join("");
  const paged = !isFileEndpoint(ep) && ep.output instanceof z.ZodObject && "meta" in ep.output.shape;
  return `${method === "POST" ? "post" : paged ? "list" : "get"}${noun}`;
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
  const common = {
    operationId: operationId(ep),
    tags: [endpointTag(ep)],
    summary: firstSentence(ep.description),
    description: `${ep.description}${ep.tool ? `\n\nAlso the MCP tool \`${ep.tool}\`.` : ""}`,
    caller: "apiKey" as const,
    input: post ? ("json" as const) : ("query" as const),
    parameters,
    ...(body ? { body: { schema: body, description: "The input, as a JSON object", example: ep.example } } : {}),
    errors: [...(ep.plans === "paid" ? (["PLAN_REQUIRED"] as const) : []), ...(ep.errors ?? [])],
  };
  if (isFileEndpoint(ep)) {
    return operation({
      ...common,
      ok: {
        description: "The file, streamed (`content-disposition: attachment`, with a file name)",
        media: ep.media,
        headers: { "x-data-version": header("DataVersion"), "content-disposition": header("ContentDisposition") },
      },
    });
  }
  return operation({
    ...common,
    ok: {
      description: "The answer; `data` (and `meta` for lists)",
      schema: ep.output,
      example: exampleAnswers.get(ep),
      headers: { "x-data-version": header("DataVersion"), "x-cache": header("Cache") },
    },
  });
}
