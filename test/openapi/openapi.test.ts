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
const UNDOCUMENTED = [/^\/mcp/, /^\/openapi\.json$/, /^\/docs/, /^\/portal/, /^\/$/, /^\/map$/, /^\/site\//, /^\/lang\//];

/** Every operation's name, as SDK users call it. A change here is a breaking change of both SDKs. */
const OPERATION_NAMES: string[] = [
  "DELETE /api/v1/jobs/{id} cancelJob",
  "DELETE /user/keys/{id} revokeKey",
  "DELETE /user/webhooks/{id} deleteWebhook",
  "GET /admin/audit adminListAudit",
  "GET /admin/reports adminListReports",
  "GET /admin/stats adminGetStats",
  "GET /admin/users adminListUsers",
  "GET /admin/users/{id} adminGetUser",
  "GET /api/v1/cuaca getCuaca",
  "GET /api/v1/gempa/terkini getGempaTerkini",
  "GET /api/v1/jobs listJobs",
  "GET /api/v1/jobs/{id} getJob",
  "GET /api/v1/jobs/{id}/result getJobResult",
  "GET /api/v1/wilayah/address resolveAddress",
  "GET /api/v1/wilayah/bps/{code} getBps",
  "GET /api/v1/wilayah/changes listChanges",
  "GET /api/v1/wilayah/changes/mapping getChangesMapping",
  "GET /api/v1/wilayah/coverage getCoverage",
  "GET /api/v1/wilayah/coverage/missing listCoverageMissing",
  "GET /api/v1/wilayah/editions getEditions",
  "GET /api/v1/wilayah/export getExport",
  "GET /api/v1/wilayah/export/license getExportLicense",
  "GET /api/v1/wilayah/export/manifest getExportManifest",
  "GET /api/v1/wilayah/export/{level}.fgb getExportFlatGeobuf",
  "GET /api/v1/wilayah/kabupaten listKabupaten",
  "GET /api/v1/wilayah/kabupaten/{id} getKabupaten",
  "GET /api/v1/wilayah/kecamatan listKecamatan",
  "GET /api/v1/wilayah/kecamatan/{id} getKecamatan",
  "GET /api/v1/wilayah/kelurahan listKelurahan",
  "GET /api/v1/wilayah/kelurahan/{id} getKelurahan",
  "GET /api/v1/wilayah/kodepos/{code} listKodepos",
  "GET /api/v1/wilayah/nearby listNearby",
  "GET /api/v1/wilayah/nik/{nik} getNik",
  "GET /api/v1/wilayah/provinsi listProvinsi",
  "GET /api/v1/wilayah/provinsi/{id} getProvinsi",
  "GET /api/v1/wilayah/pulau listPulau",
  "GET /api/v1/wilayah/pulau/{id} getPulau",
  "GET /api/v1/wilayah/reverse reverseGeocode",
  "GET /api/v1/wilayah/search searchRegions",
  "GET /api/v1/wilayah/{code}/history getHistory",
  "GET /api/v1/wilayah/{id} getWilayah",
  "GET /api/v1/wilayah/{id}/boundary getBoundary",
  "GET /api/v1/wilayah/{id}/neighbors listNeighbors",
  "GET /auth/config getAuthConfig",
  "GET /auth/me getMe",
  "GET /auth/oauth/{provider} startOAuth",
  "GET /auth/oauth/{provider}/callback finishOAuth",
  "GET /auth/verify-email verifyEmail",
  "GET /billing/credits getCredits",
  "GET /billing/details getBillingDetails",
  "GET /billing/invoices listInvoices",
  "GET /billing/invoices/{id} getInvoice",
  "GET /billing/plans listPlans",
  "GET /billing/receipts listReceipts",
  "GET /billing/receipts/{id} getReceipt",
  "GET /billing/status getBillingStatus",
  "GET /demo/region/{id} demoRegion",
  "GET /demo/reverse demoReverse",
  "GET /demo/search demoSearch",
  "GET /health getHealth",
  "GET /map/token getMapToken",
  "GET /ogc getOgcLandingPage",
  "GET /ogc/api getOgcApiDefinition",
  "GET /ogc/collections getOgcCollections",
  "GET /ogc/collections/{collectionId} getOgcCollection",
  "GET /ogc/collections/{collectionId}/items getOgcItems",
  "GET /ogc/collections/{collectionId}/items/{featureId} getOgcItem",
  "GET /ogc/collections/{collectionId}/queryables getOgcQueryables",
  "GET /ogc/conformance getOgcConformance",
  "GET /status getStatus",
  "GET /tiles/style.json getMapStyle",
  "GET /tiles/tiles.json getTileJson",
  "GET /tiles/{z}/{x}/{y}.mvt getTile",
  "GET /user/alerts getAlerts",
  "GET /user/keys listKeys",
  "GET /user/reports listOwnReports",
  "GET /user/requests listRequests",
  "GET /user/usage getUsage",
  "GET /user/webhooks listWebhooks",
  "GET /user/webhooks/{id} getWebhook",
  "GET /user/webhooks/{id}/deliveries listWebhookDeliveries",
  "GET /wilayah/changes.atom changesFeed",
  "PATCH /admin/reports/{id} adminReviewReport",
  "PATCH /admin/users/{id} adminUpdateUser",
  "PATCH /user/webhooks/{id} updateWebhook",
  "POST /admin/users/{id}/credits adminGrantCredits",
  "POST /admin/users/{id}/subscription adminGrantSubscription",
  "POST /api/v1/jobs createJob",
  "POST /api/v1/wilayah/address resolveAddresses",
  "POST /api/v1/wilayah/convert convertCodes",
  "POST /api/v1/wilayah/nik decodeNik",
  "POST /api/v1/wilayah/{id}/reports reportWrongFact",
  "POST /auth/change-password changePassword",
  "POST /auth/forgot-password forgotPassword",
  "POST /auth/login login",
  "POST /auth/logout logout",
  "POST /auth/logout-all logoutAll",
  "POST /auth/register register",
  "POST /auth/resend-verification resendVerification",
  "POST /auth/reset-password resetPassword",
  "POST /billing/subscribe subscribe",
  "POST /billing/topup createTopup",
  "POST /billing/tripay/webhook tripayWebhook",
  "POST /user/keys createKey",
  "POST /user/keys/{id}/roll rollKey",
  "POST /user/webhooks createWebhook",
  "POST /user/webhooks/{id}/deliveries/{deliveryId}/redeliver redeliverWebhook",
  "POST /user/webhooks/{id}/roll-secret rollWebhookSecret",
  "POST /user/webhooks/{id}/test testWebhook",
  "PUT /billing/details updateBillingDetails",
  "PUT /user/alerts updateAlerts",
];

// A parameter with a suffix is a regex route in Hono (`:y{[^/]+\.mvt}`): OpenAPI writes `{y}.mvt`.
const toOpenApiPath = (p: string) => p.replaceAll(/:(\w+)\{.*?\\\.(\w+)\}/g, "{$1}.$2").replaceAll(/:(\w+)/g, "{$1}");

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

  it("names every operation (operationId: the SDKs' function names) uniquely, in camelCase, and these names: renaming one breaks SDK users", async () => {
    const doc = await documentFor();
    const names: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { operationId?: string }>>))
      for (const [method, op] of Object.entries(ops)) names.push(`${method.toUpperCase()} ${path} ${op.operationId}`);
    const ids = names.map((n) => n.split(" ")[2]);
    expect(new Set(ids).size, "unique").toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    expect(names.sort()).toEqual(OPERATION_NAMES);
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
