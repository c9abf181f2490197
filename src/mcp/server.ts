/**
 * The MCP tool surface: one tool per data endpoint declaration (the same list the REST routes are
 * made from), plus nothing hand-written. A fresh server per request; the caller's principal comes
 * through the handler's auth context, and every call passes the same admission (rate, quota,
 * metering) as REST. Failures are tool errors carrying the REST error code.
 */
import { getMcpAuthContext } from "agents/mcp/server";
import { McpServer, type StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { DataContext, DataEndpoint } from "../lib/data-endpoint";
import { ApiError } from "../lib/errors";
import { type Admit, serveDataCall } from "../lib/run-endpoint";
import type { Principal } from "../lib/types";

export const SERVER_INFO = { name: "wilayah-api", version: "1.0.0" };

/**
 * The endpoint's input schema as advertised (JSON Schema), but with validation left to the endpoint
 * runner, so bad arguments fail exactly as on REST (INVALID_QUERY with details) instead of with the
 * SDK's own message.
 */
function advertisedOnly(schema: z.ZodType): StandardSchemaWithJSON {
  const std = schema["~standard"] as unknown as StandardSchemaWithJSON["~standard"];
  return { "~standard": { ...std, validate: (value: unknown) => ({ value }) } } as StandardSchemaWithJSON;
}

export type McpCallContext = { env: Env; principal: Principal; waitUntil(p: Promise<unknown>): void };

function errorResult(code: string, message: string) {
  const body = { error: { code, message } };
  return { isError: true, content: [{ type: "text" as const, text: JSON.stringify(body) }] };
}

export function buildServer(endpoints: readonly DataEndpoint[], admit: Admit): McpServer {
  const server = new McpServer(SERVER_INFO, { capabilities: { tools: {} } });
  for (const ep of endpoints) {
    if (!ep.tool) continue;
    server.registerTool(
      ep.tool,
      {
        title: ep.tool,
        description: ep.description,
        inputSchema: advertisedOnly(ep.input),
        outputSchema: ep.output as unknown as StandardSchemaWithJSON,
        annotations: { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false },
      },
      async (args: unknown) => {
        const call = getMcpAuthContext()?.props as McpCallContext | undefined;
        if (!call?.principal) return errorResult("MISSING_API_KEY", "Send your API key in the x-api-key header.");
        const ctx: DataContext = { env: call.env, principal: call.principal, waitUntil: call.waitUntil };
        try {
          const { json } = await serveDataCall(ep, args ?? {}, ctx, admit);
          return { structuredContent: JSON.parse(json) as Record<string, unknown>, content: [{ type: "text" as const, text: json }] };
        } catch (e) {
          if (e instanceof ApiError) return errorResult(e.code, e.message);
          console.error(JSON.stringify({ level: "error", surface: "mcp", tool: ep.tool, error: String(e) }));
          return errorResult("INTERNAL_ERROR", "Something went wrong on our side.");
        }
      },
    );
  }
  return server;
}
