/**
 * The MCP tool surface: one tool per data endpoint declaration (the same list the REST routes are
 * made from), nothing hand-written. A fresh server per request (stateless), handed the call's
 * context by closure; every call passes the same admission (rate, quota, metering) as REST.
 * Failures are tool errors carrying the REST error body.
 *
 * What does not depend on the request is built once per isolate: each tool's JSON Schemas (input
 * and output, made portable: see portable-schema.ts) and its registration config.
 */
import { McpServer, type StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type { ZodType } from "zod";
import pkg from "../../package.json";
import type { DataContext } from "../data/context";
import { type DataEndpoint, isFileEndpoint, type JsonEndpoint } from "../data/endpoint";
import { type Admit, serveDataCall } from "../data/run";
import { failureAnswer, failureCode } from "../lib/dependency";
import { ERROR_STATUS, type ErrorCode, errorBody } from "../lib/errors";
import { toJsonSchema } from "../lib/json-schema";
import { portableSchema } from "./portable-schema";

export const SERVER_INFO = { name: "wilayah-api", version: pkg.version };

/**
 * A JSON Schema computed once, as the SDK's Standard Schema. `validate` accepts anything: input is
 * validated by the endpoint runner, so bad arguments fail exactly as on REST (INVALID_QUERY with
 * details); output is the same JSON REST serves, built from the declared output schema.
 */
function precomputed(json: Record<string, unknown>): StandardSchemaWithJSON {
  return {
    "~standard": { version: 1, vendor: "wilayah-api", validate: (value: unknown) => ({ value }), jsonSchema: { input: () => json, output: () => json } },
  };
}

type Tool = {
  name: string;
  ep: JsonEndpoint;
  config: {
    title: string;
    description: string;
    inputSchema: StandardSchemaWithJSON;
    outputSchema: StandardSchemaWithJSON;
    annotations: Record<string, boolean>;
  };
};

/**
 * A tool about the caller's account rather than regional data (a bulk job's state): not a data
 * endpoint, so not metered, only counted against the key's per-minute rate (routes.ts).
 */
export type AccountTool = {
  name: string;
  config: Tool["config"];
  run: (args: unknown, call: DataContext) => Promise<unknown>;
};

/** An account tool's config from its schemas (built once, at module load). `writes`: the tool records something (a report), so it is neither read-only nor idempotent. */
export function accountToolConfig(o: { name: string; description: string; input: ZodType; output: ZodType; writes?: boolean }): Tool["config"] {
  return {
    title: o.name,
    description: o.description,
    inputSchema: precomputed(portableSchema(toJsonSchema(o.input, "input"))),
    outputSchema: precomputed(portableSchema(toJsonSchema(o.output, "output"))),
    annotations: { readOnlyHint: !o.writes, idempotentHint: !o.writes, destructiveHint: false, openWorldHint: false },
  };
}

const toolLists = new WeakMap<readonly DataEndpoint[], Tool[]>();

/** The tools of a list of declarations, built on first use and kept for the isolate's life. */
export function toolsOf(endpoints: readonly DataEndpoint[]): Tool[] {
  let tools = toolLists.get(endpoints);
  if (!tools) {
    tools = endpoints
      .filter((ep): ep is JsonEndpoint & { tool: string } => !isFileEndpoint(ep) && ep.tool !== null)
      .map((ep) => ({
        name: ep.tool,
        ep,
        config: {
          title: ep.tool,
          description: ep.description,
          inputSchema: precomputed(portableSchema(toJsonSchema(ep.input, "input"))),
          outputSchema: precomputed(portableSchema(toJsonSchema(ep.output, "output"))),
          annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
        },
      }));
    toolLists.set(endpoints, tools);
  }
  return tools;
}

/** Each input schema's top-level properties typed string (alone or beside null), found once. */
const stringArgs = new WeakMap<StandardSchemaWithJSON, Set<string>>();
function stringProperties(schema: StandardSchemaWithJSON): Set<string> {
  let names = stringArgs.get(schema);
  if (!names) {
    const json = schema["~standard"].jsonSchema.input({ target: "draft-2020-12" }) as {
      properties?: Record<string, { type?: unknown; anyOf?: { type?: unknown }[] }>;
    };
    const isString = (p: { type?: unknown; anyOf?: { type?: unknown }[] }) => p.type === "string" || (p.anyOf ?? []).some((a) => a.type === "string");
    names = new Set(Object.entries(json.properties ?? {}).flatMap(([k, p]) => (isString(p) ? [k] : [])));
    stringArgs.set(schema, names);
  }
  return names;
}

/**
 * Digits sent as a JSON number where the tool takes text (`{"code": 40114}`, as CLI clients such as
 * the MCP Inspector's send `code=40114`) read as those digits: codes, postal codes and NIKs are
 * digits, and "expected string" would be the only answer otherwise. Only whole numbers from 0 up
 * that JSON carried exactly (safe integers); anything else is left for the endpoint to refuse.
 */
function digitsAsText(args: unknown, schema: StandardSchemaWithJSON): unknown {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return args;
  const strings = stringProperties(schema);
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(args)) {
    if (strings.has(k) && typeof v === "number" && Number.isSafeInteger(v) && v >= 0) {
      out ??= { ...(args as Record<string, unknown>) };
      out[k] = String(v);
    }
  }
  return out ?? args;
}

function errorResult(code: ErrorCode, message: string, requestId: string) {
  return { isError: true, content: [{ type: "text" as const, text: JSON.stringify(errorBody(code, message, requestId)) }] };
}

/**
 * Registers a tool whose answer is `answer`'s JSON (its arguments with digits given as numbers read
 * as text: digitsAsText), as structured content and as text; a failure is
 * a tool error with the REST error body (as http/errors.ts answers it: the same codes and words).
 */
function answering(server: McpServer, name: string, config: Tool["config"], call: DataContext, answer: (args: unknown) => Promise<string>) {
  server.registerTool(name, config, async (args: unknown) => {
    try {
      const json = await answer(digitsAsText(args ?? {}, config.inputSchema));
      return { structuredContent: JSON.parse(json) as Record<string, unknown>, content: [{ type: "text" as const, text: json }] };
    } catch (e) {
      const failure = failureAnswer(e, { request_id: call.requestId, tool: name }, "mcp_tool_error");
      return errorResult(failure.code, failure.message, call.requestId);
    }
  });
}

/**
 * The server for one request. `only`: the request is a call of that tool, so only it is registered
 * (registering costs; an unknown name registers all, and the SDK answers as usual).
 */
export function buildServer(
  endpoints: readonly DataEndpoint[],
  admit: Admit,
  call: DataContext,
  only?: string,
  accountTools: readonly AccountTool[] = [],
): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  const all = toolsOf(endpoints);
  const known = only !== undefined && (all.some((t) => t.name === only) || accountTools.some((t) => t.name === only));
  const tools = known ? all.filter((t) => t.name === only) : all;
  for (const tool of known ? accountTools.filter((t) => t.name === only) : accountTools) {
    answering(server, tool.name, tool.config, call, async (a) => JSON.stringify(await tool.run(a, call)));
  }
  for (const tool of tools)
    answering(server, tool.name, tool.config, call, (a) => recorded(tool.name, call, admit, () => serveDataCall(tool.ep, a, call, admit)));
  return server;
}

/** A data tool's call, served and put in the account's request log (an error as the status REST gives it). */
async function recorded(name: string, call: DataContext, admit: Admit, serve: () => Promise<{ json: string; version: string }>): Promise<string> {
  const startedAt = Date.now();
  const line = { surface: "mcp", method: "tools/call", route: name, startedAt } as const;
  try {
    const answer = await serve();
    admit.record(call, { ...line, status: 200, code: null, version: answer.version });
    return answer.json;
  } catch (e) {
    const code = failureCode(e);
    admit.record(call, { ...line, status: ERROR_STATUS[code], code, version: null });
    throw e;
  }
}
