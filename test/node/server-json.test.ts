/**
 * server.json (at the repository root, where the MCP registry's `mcp-publisher` reads it) against the
 * registry's schema, and what our listing promises: one remote over streamable HTTP at /mcp, the
 * x-api-key header as a required secret, the Worker's version, a remote on the namespace's domain.
 *
 * The schema: the registry's published one when ../shared/spec/mcp/server.schema.json holds it (it
 * may not be vendored here), else clients/mcp/server.schema.json, written for this project from the
 * registry's documentation of the format; the latter is also checked to refuse what the
 * documentation says the registry refuses.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");
const read = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const server = read(join(root, "server.json"));
const OURS = join(root, "clients", "mcp", "server.schema.json");
const OFFICIAL = join(root, "..", "shared", "spec", "mcp", "server.schema.json");

function validator(schemaFile: string) {
  const schema = read(schemaFile);
  // The registry's schema is draft 2020-12 or draft-07 depending on its version; ours is 2020-12.
  const ajv = String(schema.$schema ?? "").includes("2020-12") ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}

describe("server.json for the MCP registry", () => {
  it("is valid against the registry's schema (the published one when present, else ours written from its documentation)", () => {
    const schemaFile = existsSync(OFFICIAL) ? OFFICIAL : OURS;
    const validate = validator(schemaFile);
    expect(validate(server), `${schemaFile}: ${JSON.stringify(validate.errors, null, 2)}`).toBe(true);
    expect(server.$schema).toBe("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
  });

  it("our schema refuses what the registry documents as refused", () => {
    const validate = validator(OURS);
    const valid = { name: "io.github.user/weather", description: "Weather data", version: "1.0.0" };
    expect(validate(valid)).toBe(true);
    const refused: Record<string, unknown>[] = [
      { ...valid, name: "no-namespace-separator" },
      { ...valid, description: "x".repeat(101) },
      { ...valid, version: "^1.2.3" },
      { ...valid, version: "1.x" },
      { ...valid, version: ">=1.2.3" },
      { description: "no name", version: "1.0.0" },
      { ...valid, remotes: [{ type: "websocket", url: "https://example.com/mcp" }] },
      { ...valid, remotes: [{ type: "streamable-http", url: "https://example.com/mcp", headers: [{ isSecret: true }] }] },
    ];
    for (const doc of refused) expect(validate(doc), JSON.stringify(doc)).toBe(false);
    for (const version of ["2.1.3-alpha", "2025.11.25", "2025-06-18", "v1.0"]) expect(validate({ ...valid, version }), version).toBe(true);
  });

  it("lists one remote: streamable HTTP at /mcp, the x-api-key header a required secret", () => {
    expect(server.packages).toBeUndefined();
    expect(server.remotes).toHaveLength(1);
    const [remote] = server.remotes;
    expect(remote.type).toBe("streamable-http");
    expect(remote.url).toMatch(/^https:\/\/[^/]+\/mcp$/);
    expect(remote.headers.map((h: Record<string, unknown>) => [h.name, h.isRequired, h.isSecret])).toEqual([["x-api-key", true, true]]);
  });

  it("names the Worker's version (package.json, also the MCP server's serverInfo.version) and a remote on the namespace's domain", () => {
    expect(server.version).toBe(read(join(root, "package.json")).version);
    // The official registry: `com.example/x` may only list remotes on example.com or its subdomains.
    const domain = server.name.split("/")[0].split(".").reverse().join(".");
    const host = new URL(server.remotes[0].url).hostname;
    expect(host === domain || host.endsWith(`.${domain}`), `${host} is not on ${domain}`).toBe(true);
    expect(new URL(server.websiteUrl).hostname.endsWith(domain)).toBe(true);
  });
});
