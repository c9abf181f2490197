/**
 * Docs that cannot drift (issue 55): every `METHOD /path` the README and docs/*.md write is a route
 * this Worker serves, written from the root (not `GET /bps/:code` for /api/v1/wilayah/bps/:code),
 * and the MCP tool table of docs/api.md names exactly the tools the server lists. The README's curl
 * examples themselves run against a Worker in test/browser/readme.test.ts.
 */
import { describe, expect, it } from "vitest";
import readme from "../../README.md?raw";
import { call, json, seedUserWithKey } from "../helpers";

/** docs/*.md as they are in the checkout (the set grows: docs/development.md, docs/deploy.md, ...). */
const docs: Record<string, string> = import.meta.glob("../../docs/*.md", { query: "?raw", import: "default", eager: true });
const texts: [string, string][] = [["README.md", readme], ...Object.entries(docs).map(([path, text]): [string, string] => [path.replace("../../", ""), text])];

/** Pages the Worker serves that the API document leaves out (it describes the API, not the site). */
const PAGES: [string, RegExp][] = [
  ["GET", /^\/$/],
  ["GET", /^\/(map|docs|openapi\.json)$/],
  ["GET", /^\/docs\/guide(\/[^/]+)?$/],
  ["GET", /^\/portal(\/.*)?$/],
  ["POST", /^\/portal(\/.*)?$/],
  ["POST", /^\/mcp$/],
  ["GET", /^\/__scheduled$/],
];

/** A path as the docs write it, with its parameters (`:id`, `{id}`, a real code) as one segment each, without the query. */
const pathOf = (written: string) => written.split(/\[?\?/)[0].replace(/\/$/, "") || "/";

describe("the docs say what the server serves", () => {
  it("every METHOD /path of the README and docs/*.md is a route of this Worker, from the root", async () => {
    const doc = await json(await call("/openapi.json"));
    const routes: [string, RegExp][] = [...PAGES];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      const re = new RegExp(`^${path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`);
      for (const method of Object.keys(ops)) routes.push([method.toUpperCase(), re]);
    }
    const unknown: string[] = [];
    let seen = 0;
    for (const [file, text] of texts) {
      for (const m of text.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^` ]*)/g)) {
        seen++;
        const path = pathOf(m[2]);
        if (!routes.some(([method, re]) => method === m[1] && re.test(path))) unknown.push(`${file}: ${m[1]} ${m[2]}`);
      }
    }
    expect(seen).toBeGreaterThan(100);
    expect(unknown).toEqual([]);
  });

  it("docs/api.md's MCP tool table lists exactly the tools the server lists", async () => {
    const api = texts.find(([file]) => file === "docs/api.md")![1];
    const table = api.slice(api.indexOf("| Tool "), api.indexOf("\n\n", api.indexOf("| Tool ")));
    const documented = [...table.matchAll(/^\| `([a-z_]+)`/gm)].map((m) => m[1]).sort();
    const { secret } = await seedUserWithKey({ plan: "internal" });
    const res = await call("/mcp", {
      method: "POST",
      json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      headers: { "x-api-key": secret, accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" },
    });
    const listed = ((await json(res)).result.tools as { name: string }[]).map((t) => t.name).sort();
    expect(listed.length).toBeGreaterThan(20);
    expect(documented).toEqual(listed);
  });
});
