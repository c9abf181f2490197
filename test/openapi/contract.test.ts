/**
 * Contract tests generated from the API document: for every operation, requests built from its
 * parameter and body schemas (property-based, fast-check, a bounded number of runs) against the
 * Worker holding the real seed. Every answer must be a documented status for that operation, never
 * a 5xx, and its body must validate (ajv, JSON Schema 2020-12) against the schema documented for
 * that status. Invalid requests (wrong types, out of range, unknown parameters, oversized strings,
 * malformed JSON) must answer a documented 4xx with the contract's error body.
 */

import { env } from "cloudflare:workers";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { callbackSignature } from "../../src/billing/signature";
import { forecastBody, quakeBody } from "../fixtures/bmkg";
import { call, createKey, json, makeAdmin, setPlan, verifiedDeveloper } from "../helpers";
import { uploadTilesSubset } from "../tiles-subset";

type Schema = Record<string, any>;
type Param = { in: "path" | "query" | "header"; name: string; required?: boolean; schema: Schema; example?: unknown };
type Operation = {
  parameters?: Param[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: Record<string, string[]>[];
};

const VALID_RUNS = 12;
const TRIPAY = { TRIPAY_API_KEY: "DEV-contract", TRIPAY_PRIVATE_KEY: "contract-private-key", TRIPAY_MERCHANT_CODE: "T0002" };
/** Real codes and names, so generated requests also reach the answers with data in them. */
const REAL_VALUES: Record<string, unknown[]> = {
  id: ["32", "32.73", "3273", "32.73.09", "32.73.09.1001", "3273091001", "11.01"],
  provinsi_id: ["32", "11"],
  kabupaten_id: ["32.73", "3273"],
  kecamatan_id: ["32.73.09"],
  adm4: ["32.73.09.1001"],
  q: ["bandung", "jakarta selatan", "an", "sukamaju", "jogja"],
};

let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
let auth: { key: string; token: string; admin: string };
let generated = 0;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

/** Inlines the document's local `$ref`s (only components are referenced from body schemas). */
function resolve(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(resolve);
  if (schema === null || typeof schema !== "object") return schema;
  const s = schema as Schema;
  if (typeof s.$ref === "string" && s.$ref.startsWith("#/components/")) {
    const [, , kind, name] = s.$ref.split("/");
    return resolve((doc.components as any)[kind][name]);
  }
  return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, resolve(v)]));
}

/** A fast-check arbitrary for the subset of JSON Schema the document uses. */
function arbitrary(schema: Schema, example?: unknown): fc.Arbitrary<unknown> {
  const base = ((): fc.Arbitrary<unknown> => {
    if (schema.const !== undefined) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...schema.enum);
    if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s: Schema) => arbitrary(s)));
    switch (schema.type) {
      case "integer": {
        const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1000);
        return fc.integer({ min, max: schema.maximum ?? Math.max(min + 1000, 1000) });
      }
      case "number":
        return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true });
      case "boolean":
        return fc.boolean();
      case "array":
        return fc.array(arbitrary(schema.items ?? {}), { maxLength: 3 });
      case "object": {
        const props = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, arbitrary(v as Schema)]));
        return fc.record(props, { requiredKeys: schema.required ?? [] });
      }
      default: {
        if (schema.format === "email") return fc.emailAddress();
        if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
        return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
      }
    }
  })();
  const real = [...(example !== undefined ? [example] : [])];
  return real.length ? fc.oneof(fc.constantFrom(...real), base) : base;
}

const jsonSchemaOf = (op: Operation) => op.requestBody?.content["application/json"]?.schema;
const queryString = (q: Record<string, unknown>) => new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();

/** Sends one request for an operation, with the credentials its security names. */
async function send(
  method: string,
  path: string,
  op: Operation,
  req: { path: Record<string, unknown>; query: Record<string, unknown>; body?: unknown; rawBody?: string },
) {
  let url = path;
  for (const [k, v] of Object.entries(req.path)) url = url.replace(`{${k}}`, encodeURIComponent(String(v)));
  const qs = queryString(req.query);
  const headers: Record<string, string> = {};
  const scheme = Object.keys(op.security?.[0] ?? {})[0];
  if (scheme === "apiKey") headers["x-api-key"] = auth.key;
  if (scheme === "bearer") headers.authorization = `Bearer ${path.startsWith("/admin") ? auth.admin : auth.token}`;
  let body: string | undefined = req.rawBody ?? (req.body !== undefined ? JSON.stringify(req.body) : undefined);
  if (op.requestBody) {
    body ??= "{}";
    headers["content-type"] = "application/json";
  }
  if (scheme === "tripaySignature") {
    headers["x-callback-signature"] = await callbackSignature(TRIPAY.TRIPAY_PRIVATE_KEY, body!);
    headers["x-callback-event"] = "payment_status";
  }
  generated++;
  return call(`${url}${qs ? `?${qs}` : ""}`, { method: method.toUpperCase(), headers, body, redirect: "manual" });
}

/** The answer must be documented for the operation, below 500, and its body valid for that status. */
async function expectDocumented(res: Response, op: Operation, what: string, expect4xx = false) {
  const status = String(res.status);
  const text = await res.text();
  expect(res.status, `${what}: ${status} ${text.slice(0, 300)}`).toBeLessThan(500);
  if (expect4xx) expect(res.status, `${what}: ${status} ${text.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  const documented = op.responses[status];
  expect(documented, `${what}: status ${status} is not documented (${Object.keys(op.responses)}): ${text.slice(0, 300)}`).toBeDefined();
  // A file endpoint answers the media type its format asks for (text/csv, application/geo+json...):
  // that type must be documented for the status; only JSON bodies are checked against a schema.
  const type = res.headers.get("content-type")?.split(";")[0].trim();
  if (documented.content && type && type !== "application/json") {
    expect(documented.content[type], `${what}: ${status} answered ${type}, not documented (${Object.keys(documented.content)})`).toBeDefined();
    return;
  }
  const schema = documented.content?.["application/json"]?.schema;
  if (!schema) return;
  const check = ajv.compile(resolve(schema));
  const body = JSON.parse(text);
  expect(check(body), `${what}: ${status} body does not match its schema: ${ajv.errorsText(check.errors)} in ${text.slice(0, 300)}`).toBe(true);
}

/** Valid requests: every required parameter, a random choice of the optional ones, values from the schemas. */
function validRequests(op: Operation) {
  const params = op.parameters ?? [];
  const group = (where: Param["in"]) =>
    fc.record(
      Object.fromEntries(
        params.filter((p) => p.in === where && p.name !== "x-callback-event").map((p) => [p.name, arbitrary(p.schema, REAL_VALUES[p.name]?.[0] ?? p.example)]),
      ),
      { requiredKeys: params.filter((p) => p.in === where && (p.required || where === "path")).map((p) => p.name) },
    );
  const bodySchema = jsonSchemaOf(op);
  return fc.record({ path: group("path"), query: group("query"), body: bodySchema ? arbitrary(resolve(bodySchema)) : fc.constant(undefined) }).map((r) => {
    for (const [k, values] of Object.entries(REAL_VALUES))
      if (k in r.query && Math.random() < 0.5) r.query[k] = values[Math.floor(Math.random() * values.length)];
    for (const [k, values] of Object.entries(REAL_VALUES))
      if (k in r.path && Math.random() < 0.5) r.path[k] = values[Math.floor(Math.random() * values.length)];
    return r;
  });
}

/** Invalid variants of a request, each with why it is invalid. */
function invalidRequests(op: Operation): { why: string; query?: Record<string, unknown>; rawBody?: string; body?: unknown }[] {
  const out: { why: string; query?: Record<string, unknown>; rawBody?: string; body?: unknown }[] = [];
  const query = (op.parameters ?? []).filter((p) => p.in === "query");
  const required = Object.fromEntries(query.filter((p) => p.required).map((p) => [p.name, REAL_VALUES[p.name]?.[0] ?? p.example ?? "x"]));
  // Query parameters are validated (and documented as 400 INVALID_QUERY) wherever an operation
  // declares them; a link opened from an email (verify-email) tolerates extra parameters by design.
  if (query.length > 0 && op.responses["400"]) {
    out.push({ why: "unknown query parameter", query: { ...required, zz_unknown: "1" } });
    for (const p of query) {
      const t = p.schema.type;
      if (t === "integer")
        out.push(
          { why: `${p.name} not an integer`, query: { ...required, [p.name]: "abc" } },
          // below its minimum (0 for most: page, limit; -1 for a zoom, whose 0 is a value)
          { why: `${p.name} out of range`, query: { ...required, [p.name]: String((p.schema.minimum ?? 1) - 1) } },
          { why: `${p.name} as 1e3`, query: { ...required, [p.name]: "1e3" } },
        );
      if (t === "string" && p.schema.maxLength) out.push({ why: `${p.name} oversized`, query: { ...required, [p.name]: "a".repeat(p.schema.maxLength + 1) } });
      if (p.schema.enum) out.push({ why: `${p.name} not one of its values`, query: { ...required, [p.name]: "zz-not-a-value" } });
    }
  }
  const body = jsonSchemaOf(op);
  if (body) {
    const schema = resolve(body);
    out.push({ why: "malformed JSON", rawBody: "{not json" }, { why: "a JSON array instead of an object", rawBody: "[1,2]" });
    for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      const wrong = prop.type === "string" || prop.format === "email" ? 12345 : "not-the-type";
      out.push({ why: `${name} of the wrong type`, body: { [name]: wrong } });
      if (prop.maxLength) out.push({ why: `${name} oversized`, body: { [name]: "a".repeat(prop.maxLength + 1) } });
    }
  }
  return out;
}

beforeAll(async () => {
  Object.assign(env, TRIPAY);
  // The tiles are served from their archive in R2 (uploaded per data version): in place, as on a deployment.
  await uploadTilesSubset();
  // Outbound calls are answered here: Tripay's sandbox and BMKG; nothing reaches the internet.
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.includes("/transaction/create")) {
      const sent = JSON.parse(String(init?.body));
      return Response.json({
        success: true,
        data: {
          reference: `DEV-C${crypto.randomUUID().slice(0, 8)}`,
          merchant_ref: sent.merchant_ref,
          amount: sent.amount,
          qr_string: "SANDBOX MODE",
          qr_url: null,
          expired_time: sent.expired_time,
          status: "UNPAID",
        },
      });
    }
    if (url.includes("prakiraan-cuaca")) return Response.json(forecastBody(new URL(url).searchParams.get("adm4") ?? "32.73.09.1001"));
    if (url.includes("autogempa")) return Response.json(quakeBody);
    throw new TypeError(`contract test: no outbound call expected to ${url}`);
  });
  const dev = await verifiedDeveloper();
  await setPlan(dev.data.id, "internal");
  const admin = await makeAdmin();
  auth = { key: (await createKey(dev.token, "contract")).key, token: dev.token, admin: admin.token };
  doc = await json(await call("/openapi.json"));
});

afterAll(() => {
  vi.restoreAllMocks();
  for (const k of Object.keys(TRIPAY)) delete (env as any)[k];
  console.log(`contract tests: ${generated} generated requests`);
});

/** Hundreds of requests each: a loaded 2-core machine takes well over the default 30 s. */
const CONTRACT_TIMEOUT_MS = 120_000;

describe("contract: every operation of the API document", () => {
  it(
    "answers generated valid requests with documented statuses and bodies, never a 5xx",
    async () => {
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          await fc.assert(
            fc.asyncProperty(validRequests(op), async (req) => {
              const res = await send(method, path, op, req);
              await expectDocumented(res, op, `${method.toUpperCase()} ${path} ${JSON.stringify(req).slice(0, 200)}`);
            }),
            { numRuns: VALID_RUNS, seed: 20261122 },
          );
        }
      }
      expect(generated).toBeGreaterThan(Object.keys(doc.paths).length * VALID_RUNS * 0.9);
    },
    CONTRACT_TIMEOUT_MS,
  );

  it(
    "answers invalid requests with a documented 4xx and the contract's error body",
    async () => {
      let invalid = 0;
      for (const [path, ops] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(ops)) {
          const pathValues = Object.fromEntries((op.parameters ?? []).filter((p) => p.in === "path").map((p) => [p.name, REAL_VALUES[p.name]?.[0] ?? "x"]));
          for (const variant of invalidRequests(op)) {
            const res = await send(method, path, op, { path: pathValues, query: variant.query ?? {}, body: variant.body, rawBody: variant.rawBody });
            await expectDocumented(res, op, `${method.toUpperCase()} ${path}: ${variant.why}`, true);
            invalid++;
          }
        }
      }
      expect(invalid).toBeGreaterThan(50);
    },
    CONTRACT_TIMEOUT_MS,
  );
});
