import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { dataEndpoints } from "../../src/catalogue";
import { call, json } from "../helpers";

/**
 * Routes that are not part of the REST document: the MCP surface (described by its tools/list),
 * the document and its page, and the portal's pages (a web surface, not an API).
 */
// Browser surfaces (pages, their assets, the language toggle) are not API operations.
const UNDOCUMENTED = [/^\/mcp/, /^\/openapi\.json$/, /^\/docs/, /^\/portal/, /^\/$/, /^\/site\//, /^\/lang\//];

const toOpenApiPath = (p: string) => p.replaceAll(/:(\w+)/g, "{$1}");

async function documentFor() {
  const res = await call("/openapi.json");
  expect(res.status).toBe(200);
  return json(res);
}

describe("the API document", () => {
  it("is valid OpenAPI 3.1 (checked by @readme/openapi-parser)", async () => {
    const doc = await documentFor();
    expect(doc.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(doc));
    expect(result.valid, JSON.stringify(result, null, 1).slice(0, 3000)).toBe(true);
  });

  it("documents every route the app serves, and only those", async () => {
    const doc = await documentFor();
    const served = new Set<string>();
    for (const r of app.routes) {
      if (r.method === "ALL" || UNDOCUMENTED.some((x) => x.test(r.path))) continue;
      served.add(`${r.method.toLowerCase()} ${toOpenApiPath(r.path)}`);
    }
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>))
      for (const m of Object.keys(ops)) documented.add(`${m} ${path}`);
    expect(
      [...served].filter((r) => !documented.has(r)),
      "served but not documented",
    ).toEqual([]);
    expect(
      [...documented].filter((r) => !served.has(r)),
      "documented but not served",
    ).toEqual([]);
  });

  it("each data endpoint's operation says what its MCP tool says", async () => {
    const doc = await documentFor();
    for (const ep of dataEndpoints) {
      const op = doc.paths[toOpenApiPath(`/api/v1${ep.path}`)][(ep.method ?? "GET").toLowerCase()];
      expect(op.description, ep.path).toContain(ep.description);
      if (ep.tool) expect(op.description).toContain(`\`${ep.tool}\``);
    }
  });

  it("data examples are real answers from the loaded data (32.73.09.1001 is Cihapit, Bandung Wetan, Kota Bandung)", async () => {
    const doc = await documentFor();
    const example = (path: string) => doc.paths[path].get.responses["200"].content["application/json"].example;
    expect(example("/api/v1/wilayah/{id}").data).toMatchObject({ id: "32.73.09.1001", code: "3273091001", level: "kelurahan", kecamatan_id: "32.73.09" });
    expect(example("/api/v1/wilayah/kelurahan").meta).toMatchObject({ page: 1, per_page: 2 });
    expect(example("/api/v1/wilayah/search").data[0]).toMatchObject({ name: "Bandung Wetan", level: "kecamatan" });
    expect(example("/api/v1/wilayah/{code}/history").data).toMatchObject({ code: "91.01", status: "retired", successors: [{ id: "93.01", basis: "curated" }] });
    for (const ep of dataEndpoints.filter((e) => e.example)) {
      expect(
        doc.paths[toOpenApiPath(`/api/v1${ep.path}`)][(ep.method ?? "GET").toLowerCase()].responses["200"].content["application/json"].example,
        ep.path,
      ).toBeDefined();
    }
  });
});
