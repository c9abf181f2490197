import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterEach, describe, expect, it, vi } from "vitest";
import pkg from "../../package.json";
import { app } from "../../src/app";
import { BASE, call, createKey, json, seedUserWithKey, setPlan, verifiedDeveloper } from "../helpers";

/** A client's fetch, answered by the Worker in-process (see platform notes: no signal, real Host). */
async function workerFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const { signal: _signal, ...rest } = init ?? {};
  const req = new Request(input, rest);
  req.headers.set("host", new URL(BASE).host);
  return exports.default.fetch(req);
}

/** The official client (SDK v1, 2025-era protocol), talking to the Worker in-process. */
async function connect(key: string | undefined) {
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    requestInit: { headers: key ? { "x-api-key": key } : {} },
    fetch: workerFetch,
  });
  const client = new Client({ name: "wilayah-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

/** The SDK v2 client pinned to the 2026-07-28 revision: its requests take the agents handler's leg. */
async function connectModern(key: string) {
  const transport = new ModernTransport(new URL(`${BASE}/mcp`), {
    requestInit: { headers: { "x-api-key": key } },
    fetch: workerFetch,
  });
  const client = new ModernClient({ name: "wilayah-test", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC POST to /mcp, as a 2025-era client sends it. */
function rawMcp(body: unknown, headers: Record<string, string> = {}, method = "POST") {
  return exports.default.fetch(
    new Request(`${BASE}/mcp`, {
      method,
      headers: {
        host: new URL(BASE).host,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-06-18",
        ...headers,
      },
      body: method === "POST" ? JSON.stringify(body) : undefined,
    }),
  );
}

type ToolResult = { isError?: boolean; structuredContent?: any; content: { type: string; text: string }[] };
const errorCode = (r: ToolResult) => JSON.parse(r.content[0].text).error.code;

afterEach(() => vi.restoreAllMocks());

describe("MCP tool surface", () => {
  it("initializes and lists one tool per data endpoint (and jobs_status, wilayah_report), with schemas and read-only annotations (wilayah_report writes)", async () => {
    const { secret } = await seedUserWithKey();
    const client = await connect(secret);
    expect(client.getServerVersion()).toMatchObject({ name: "wilayah-api", version: pkg.version });
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        "cuaca",
        "gempa_terkini",
        "jobs_status",
        "wilayah_address",
        "wilayah_boundary",
        "wilayah_bps",
        "wilayah_changes",
        "wilayah_convert",
        "wilayah_coverage",
        "wilayah_coverage_missing",
        "wilayah_detail",
        "wilayah_editions",
        "wilayah_history",
        "wilayah_kabupaten",
        "wilayah_kecamatan",
        "wilayah_kelurahan",
        "wilayah_kodepos",
        "wilayah_nearby",
        "wilayah_neighbors",
        "wilayah_nik",
        "wilayah_provinsi",
        "wilayah_pulau",
        "wilayah_pulau_detail",
        "wilayah_report",
        "wilayah_reverse",
        "wilayah_search",
      ].sort(),
    );
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(40);
      // wilayah_report files a report: neither read-only nor idempotent (each call is a report)
      const writes = t.name === "wilayah_report";
      expect(t.annotations, t.name).toMatchObject({ readOnlyHint: !writes, idempotentHint: !writes, openWorldHint: false });
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
    }
    const search = tools.find((t) => t.name === "wilayah_search")!;
    expect(Object.keys(search.inputSchema.properties!)).toEqual(expect.arrayContaining(["q", "page", "per_page", "level"]));
    expect(Object.keys(tools.find((t) => t.name === "wilayah_kabupaten")!.inputSchema.properties!)).toContain("provinsi_id");
    expect(Object.keys(tools.find((t) => t.name === "cuaca")!.inputSchema.properties!).sort()).toEqual(["adm4", "kabupaten_id"]);
    await client.close();
  });

  it("tools return {data, meta} as structured content and the same JSON as text, like REST", async () => {
    const { secret } = await seedUserWithKey();
    const client = await connect(secret);
    const r = (await client.callTool({ name: "wilayah_search", arguments: { q: "bandung", per_page: 5 } })) as ToolResult;
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent.meta).toMatchObject({ page: 1, per_page: 5 });
    expect(r.structuredContent.data[0]).toMatchObject({ id: "32.04", level: "kabupaten" });
    expect(JSON.parse(r.content[0].text)).toEqual(r.structuredContent);
    const rest = await json(await call("/api/v1/wilayah/search?q=bandung&per_page=5", { key: secret }));
    expect(r.structuredContent).toEqual(rest);

    const prov = (await client.callTool({ name: "wilayah_provinsi", arguments: {} })) as ToolResult;
    expect(prov.structuredContent.meta.total).toBe(38);
    const kab = (await client.callTool({ name: "wilayah_kabupaten", arguments: { provinsi_id: "32", per_page: 100 } })) as ToolResult;
    expect(kab.structuredContent.meta.total).toBe(27);
    const kec = (await client.callTool({ name: "wilayah_kecamatan", arguments: { kabupaten_id: "3273" } })) as ToolResult;
    expect(kec.structuredContent.meta.total).toBe(30);
    const kel = (await client.callTool({ name: "wilayah_kelurahan", arguments: { kecamatan_id: "32.73.09" } })) as ToolResult;
    expect(kel.structuredContent.data.map((x: { name: string }) => x.name)).toContain("Cihapit");
    const detail = (await client.callTool({ name: "wilayah_detail", arguments: { id: "3273091001" } })) as ToolResult;
    expect(detail.structuredContent.data).toMatchObject({ id: "32.73.09.1001", name: "Cihapit", level: "kelurahan" });
    await client.close();
  });

  it("the tools of coordinates, postal codes, islands, boundaries and NIK answer like REST", async () => {
    const { secret } = await seedUserWithKey();
    const client = await connect(secret);
    const same = async (name: string, args: Record<string, unknown>, path: string) => {
      const r = (await client.callTool({ name, arguments: args })) as ToolResult;
      expect(r.isError, name).toBeFalsy();
      expect(r.structuredContent, name).toEqual(await json(await call(`/api/v1/wilayah${path}`, { key: secret })));
      return r.structuredContent;
    };
    const rev = await same("wilayah_reverse", { lat: -6.90827, lng: 107.626971 }, "/reverse?lat=-6.90827&lng=107.626971");
    expect(rev.data.kelurahan).toMatchObject({ id: "32.73.09.1001", postal_code: "40114" });
    await same("wilayah_kodepos", { code: "40114" }, "/kodepos/40114");
    const pulau = await same("wilayah_pulau", { kabupaten_id: "11.10", q: "mangkir" }, "/pulau?kabupaten_id=11.10&q=mangkir");
    expect(pulau.meta.total).toBe(2);
    await same("wilayah_pulau_detail", { id: "12.01.40013" }, "/pulau/12.01.40013");
    const shape = await same("wilayah_boundary", { id: "32.73.09", simplify: 0.001 }, "/32.73.09/boundary?simplify=0.001");
    expect(shape.data.geometry.type).toBe("MultiPolygon");
    const nik = (await client.callTool({ name: "wilayah_nik", arguments: { nik: "3273094512900001" } })) as ToolResult;
    expect(nik.structuredContent.data).toMatchObject({ region_code: "32.73.09", sex: "female", birth_date: "1990-12-05" });
    const bad = (await client.callTool({ name: "wilayah_reverse", arguments: { lat: 95, lng: 107 } })) as ToolResult;
    expect(bad.isError).toBe(true);
    expect(errorCode(bad)).toBe("INVALID_QUERY");
    const sea = (await client.callTool({ name: "wilayah_reverse", arguments: { lat: -5, lng: 100 } })) as ToolResult;
    expect(errorCode(sea)).toBe("NOT_FOUND");
    // wilayah_nik is POST /wilayah/nik (issue 22: the NIK stays out of URLs): a bad NIK is a malformed body field.
    const badNik = (await client.callTool({ name: "wilayah_nik", arguments: { nik: "123" } })) as ToolResult;
    expect(errorCode(badNik)).toBe("VALIDATION_ERROR");
    await client.close();
  });

  it("the BMKG tools answer with structured content (BMKG intercepted), and upstream failures are tool errors", async () => {
    const { secret } = await seedUserWithKey();
    const client = await connect(secret);
    await env.KV.delete("bmkg:gempa:terkini");
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url.endsWith("autogempa.json")) {
        return Response.json({
          Infogempa: {
            gempa: {
              Tanggal: "21 Nov 2026",
              Jam: "13:41:52 WIB",
              DateTime: "2026-11-21T06:41:52+00:00",
              Coordinates: "-6.89,109.67",
              Magnitude: "5.1",
              Kedalaman: "10 km",
              Wilayah: "Laut Jawa",
            },
          },
        });
      }
      const slot = { utc_datetime: "2026-11-22 00:00:00", local_datetime: "2026-11-22 07:00:00", t: 27, hu: 80 };
      return Response.json({ data: [{ lokasi: { adm4: "32.73.01.1002", lat: -6.87, lon: 107.59, timezone: "Asia/Jakarta" }, cuaca: [[slot]] }] });
    });
    const quake = (await client.callTool({ name: "gempa_terkini", arguments: {} })) as ToolResult;
    expect(quake.isError).toBeFalsy();
    expect(quake.structuredContent.data).toMatchObject({ magnitude: 5.1, depth_km: 10, lat: -6.89, source: expect.stringContaining("BMKG") });
    const weather = (await client.callTool({ name: "cuaca", arguments: { adm4: "32.73.01.1002" } })) as ToolResult;
    expect(weather.isError).toBeFalsy();
    expect(weather.structuredContent.data.locations[0].forecast[0]).toMatchObject({ time: "2026-11-22T07:00:00+07:00", temperature_c: 27 });
    vi.restoreAllMocks();
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("down", { status: 503 }));
    const down = (await client.callTool({ name: "cuaca", arguments: { kabupaten_id: "32.04" } })) as ToolResult;
    expect(down.isError).toBe(true);
    expect(errorCode(down)).toBe("UPSTREAM_ERROR");
    await client.close();
  });

  it("bad arguments are tool errors with the REST error codes", async () => {
    const { secret } = await seedUserWithKey();
    const client = await connect(secret);
    const cases: [string, Record<string, unknown>, string][] = [
      ["wilayah_search", { q: "a" }, "INVALID_QUERY"],
      ["wilayah_search", {}, "INVALID_QUERY"],
      ["wilayah_provinsi", { per_page: 0 }, "INVALID_QUERY"],
      ["wilayah_provinsi", { page: "abc" }, "INVALID_QUERY"],
      ["wilayah_provinsi", { page: true }, "INVALID_QUERY"],
      ["wilayah_provinsi", { per_page: [5] }, "INVALID_QUERY"],
      ["wilayah_provinsi", { page: "3" }, "INVALID_QUERY"],
      ["wilayah_provinsi", { page: 1.5 }, "INVALID_QUERY"],
      ["wilayah_detail", { id: "1".repeat(21) }, "NOT_FOUND"],
      ["wilayah_kabupaten", { provinsi: "32" }, "INVALID_QUERY"],
      ["wilayah_kecamatan", { kabupaten_id: -3273 }, "INVALID_QUERY"],
      ["wilayah_kecamatan", { kabupaten_id: 32.73 }, "INVALID_QUERY"],
      ["wilayah_kelurahan", { include_inactive: "maybe" }, "INVALID_QUERY"],
      ["gempa_terkini", { region: "x" }, "INVALID_QUERY"],
      ["wilayah_detail", { id: "99.99" }, "NOT_FOUND"],
      ["cuaca", {}, "INVALID_QUERY"],
      ["cuaca", { adm4: "32.73.09.1001", kabupaten_id: "32.73" }, "INVALID_QUERY"],
      ["cuaca", { adm4: "32.73.09.9999" }, "NOT_FOUND"],
    ];
    for (const [name, args, code] of cases) {
      const r = (await client.callTool({ name, arguments: args })) as ToolResult;
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(errorCode(r), `${name} ${JSON.stringify(args)}`).toBe(code);
      expect(r.content[0].text).not.toMatch(/at .*\.ts|stack/i);
    }
    await client.close();
  });

  it("digits sent as numbers for text arguments (CLI clients: code=40114) read as those digits (issue 41)", async () => {
    const { secret } = await seedUserWithKey();
    const client = await connect(secret);
    const asText = (await client.callTool({ name: "wilayah_kodepos", arguments: { code: "40114" } })) as ToolResult;
    const asNumber = (await client.callTool({ name: "wilayah_kodepos", arguments: { code: 40114 } })) as ToolResult;
    expect(asNumber.isError).toBeFalsy();
    expect(asNumber.structuredContent).toEqual(asText.structuredContent);
    const kec = (await client.callTool({ name: "wilayah_kecamatan", arguments: { kabupaten_id: 3273, per_page: 5 } })) as ToolResult;
    expect(kec.isError).toBeFalsy();
    expect(kec.structuredContent.data[0].kabupaten_id).toBe("32.73");
    const detail = (await client.callTool({ name: "wilayah_detail", arguments: { id: 32 } })) as ToolResult;
    expect(detail.structuredContent.data).toMatchObject({ id: "32", name: "Jawa Barat" });
    // numbers where the tool wants numbers are untouched; text where it wants a number is still refused
    expect(errorCode((await client.callTool({ name: "wilayah_provinsi", arguments: { page: "3" } })) as ToolResult)).toBe("INVALID_QUERY");
    await client.close();
  });

  it("a missing, wrong or revoked key is refused on every request", async () => {
    await expect(connect(undefined)).rejects.toThrow();
    await expect(connect(`wk_live_${"B".repeat(32)}`)).rejects.toThrow();
    const res = await call("/mcp", {
      method: "POST",
      json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
      headers: { accept: "application/json, text/event-stream" },
    });
    expect(res.status).toBe(401);
    expect((await json(res)).error.code).toBe("MISSING_API_KEY");
    // a challenge that names the header, and no Bearer one: the endpoint has no OAuth to discover (issue 41)
    expect(res.headers.get("www-authenticate")).toBe('ApiKey realm="wilayah-api", header="x-api-key"');
    // what a CLI client such as the Inspector's (the SDK's transport without an auth provider) shows: the code
    await expect(connect(undefined)).rejects.toThrow(/MISSING_API_KEY/);
    await expect(connect(`wk_live_${"C".repeat(32)}`)).rejects.toThrow(/INVALID_API_KEY/);

    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "internal");
    const k = await createKey(dev.token);
    const client = await connect(k.key);
    expect(((await client.callTool({ name: "wilayah_provinsi", arguments: {} })) as ToolResult).isError).toBeFalsy();
    await call(`/user/keys/${k.id}`, { method: "DELETE", token: dev.token });
    await expect(client.callTool({ name: "wilayah_provinsi", arguments: {} })).rejects.toThrow(/401|INVALID_API_KEY/);
  });

  it("tool calls are metered like REST calls; failed calls are not", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "internal");
    const k = await createKey(dev.token, "agent");
    const client = await connect(k.key);
    for (let i = 0; i < 3; i++) await client.callTool({ name: "wilayah_search", arguments: { q: "jogja" } });
    await client.callTool({ name: "wilayah_detail", arguments: { id: "32" } });
    await client.callTool({ name: "wilayah_detail", arguments: { id: "99" } }); // NOT_FOUND: not metered
    await client.close();
    const usage = (await json(await call("/user/usage", { token: dev.token }))).data;
    expect(usage.total).toBe(4);
    expect(usage.by_endpoint).toEqual([
      { endpoint: "/wilayah/search", count: 3 },
      { endpoint: "/wilayah/:id", count: 1 },
    ]);
  });

  it("every tool schema passes the MCP Inspector's --strict rules (no type arrays, bare boolean schemas, remote refs or untyped nodes)", async () => {
    const { secret } = await seedUserWithKey();
    const client = await connect(secret);
    const { tools } = await client.listTools();
    const findings = tools.flatMap((t) => [...strictFindings(t.inputSchema, `${t.name}.input`), ...strictFindings(t.outputSchema, `${t.name}.output`)]);
    expect(findings).toEqual([]);
    // The rule would catch what zod writes for a nullable field: lat is nullable in the kelurahan records.
    const lat = (tools.find((t) => t.name === "wilayah_kelurahan")!.outputSchema as any).properties.data.items.properties.lat;
    expect(lat.anyOf).toEqual([{ type: "number" }, { type: "null" }]);
    await client.close();
  });

  it("serves clients of both protocol eras: 2025 (answered as one JSON message) and 2026-07-28 (the agents handler)", async () => {
    const { secret } = await seedUserWithKey();
    const res = await rawMcp(
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "wilayah_search", arguments: { q: "bandung", per_page: 2 } } },
      { "x-api-key": secret },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = (await res.json()) as { id: number; result: ToolResult };
    expect(body.id).toBe(7);
    expect(body.result.structuredContent.data.map((r: { id: string }) => r.id)).toEqual(["32.04", "32.73"]);

    const modern = await connectModern(secret);
    expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const { tools } = await modern.listTools();
    expect(tools.length).toBe(26); // 24 data tools, jobs_status and wilayah_report
    expect(tools.every((t) => t.inputSchema.type === "object" && t.outputSchema?.type === "object")).toBe(true);
    const r = (await modern.callTool({ name: "wilayah_search", arguments: { q: "bandung", per_page: 2 } })) as ToolResult;
    expect(r.structuredContent).toEqual(body.result.structuredContent);
    const bad = (await modern.callTool({ name: "wilayah_search", arguments: { q: "b" } })) as ToolResult;
    expect(bad.isError).toBe(true);
    expect(errorCode(bad)).toBe("INVALID_QUERY");
    await modern.close();
  });

  it("2025-era GET and DELETE (session operations) are 405 without sessions; notifications are accepted with 202", async () => {
    const { secret } = await seedUserWithKey();
    for (const method of ["GET", "DELETE"]) {
      const res = await rawMcp(undefined, { "x-api-key": secret, accept: "text/event-stream" }, method);
      expect(res.status, method).toBe(405);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe("Method not allowed.");
    }
    const note = await rawMcp({ jsonrpc: "2.0", method: "notifications/initialized" }, { "x-api-key": secret });
    expect(note.status).toBe(202);
    const notJson = await exports.default.fetch(
      new Request(`${BASE}/mcp`, {
        method: "POST",
        headers: { host: new URL(BASE).host, "x-api-key": secret, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: "{",
      }),
    );
    expect(notJson.status).toBe(400);
  });

  it("a browser page may call /mcp only from localhost, the endpoint's own host or MCP_HOSTNAMES", async () => {
    const { secret } = await seedUserWithKey();
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list" };
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:6274", BASE, "https://api.wilayah.test"]) {
      expect((await rawMcp(list, { "x-api-key": secret, origin })).status, origin).toBe(200);
    }
    const evil = await rawMcp(list, { "x-api-key": secret, origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { error: { message: string } }).error.message).toMatch(/origin/i);
    // The modern leg is behind the same check.
    const modern = await rawMcp(list, { "x-api-key": secret, origin: "https://evil.example", "mcp-protocol-version": "2026-07-28" });
    expect(modern.status).toBe(403);
  });

  it("answers only its own hostnames: the configured ones, localhost and *.workers.dev; any other Host is refused", async () => {
    const { secret } = await seedUserWithKey();
    const initialize = (host: string, mcpHostnames = env.MCP_HOSTNAMES) => {
      const ctx = createExecutionContext();
      const req = new Request(`https://${host}/mcp`, {
        method: "POST",
        headers: { host, "x-api-key": secret, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
        }),
      });
      return Promise.resolve(app.fetch(req, { ...env, MCP_HOSTNAMES: mcpHostnames }, ctx)).then(async (res) => {
        await waitOnExecutionContext(ctx);
        return res.status;
      });
    };
    expect(env.MCP_HOSTNAMES).toBe("api.wilayah.test");
    expect(await initialize("api.wilayah.test")).toBe(200);
    expect(await initialize("wilayah-api.someone.workers.dev")).toBe(200);
    expect(await initialize("localhost")).toBe(200);
    expect(await initialize("evil.example")).toBe(403);
    // The shipped default (no names configured): still not any Host.
    expect(await initialize("evil.example", "")).toBe(403);
    expect(await initialize("api.wilayah.test", "")).toBe(403);
    expect(await initialize("wilayah-api.someone.workers.dev", "")).toBe(200);
    expect(await initialize("localhost", "")).toBe(200);
  });
});

describe("MCP requests that are not tool calls (issue 22)", () => {
  it("initialize and tools/list count against the key's per-minute rate, not its quota", async () => {
    const { secret, userId } = await seedUserWithKey({ plan: "free" }); // 30 per minute
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } },
    };
    const answers: Response[] = [];
    // Fixed one-minute windows: 61 requests cross 30 even if a window ends mid-test.
    for (let i = 0; i < 61; i++) answers.push(await rawMcp(i % 2 ? initialize : { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "x-api-key": secret }));
    const limited = answers.find((r) => r.status === 429);
    expect(limited).toBeDefined();
    expect(limited!.headers.get("retry-after")).toBe("60");
    expect(((await limited!.json()) as { error: { code: string } }).error.code).toBe("RATE_LIMITED");
    const month = new Date().toISOString().slice(0, 7);
    const usage = await env.ACCOUNT.get(env.ACCOUNT.idFromName(userId)).usage(month);
    expect(usage).toEqual([]);
  });
});

/** The four rules of `@modelcontextprotocol/inspector --cli ... --method tools/list --strict`, as findings. */
function strictFindings(schema: unknown, path: string): string[] {
  const out: string[] = [];
  const BOOLEAN_OK = new Set(["additionalProperties", "unevaluatedProperties", "additionalItems", "unevaluatedItems"]);
  const TYPED = ["type", "anyOf", "oneOf", "allOf", "$ref", "enum", "const", "not", "properties", "items"];
  const visit = (node: unknown, at: string, key: string) => {
    if (typeof node === "boolean") {
      if (!BOOLEAN_OK.has(key)) out.push(`${at}: boolean schema`);
      return;
    }
    if (node === null || typeof node !== "object" || Array.isArray(node)) return;
    const n = node as Record<string, unknown>;
    if (Array.isArray(n.type)) out.push(`${at}: type union ${JSON.stringify(n.type)}`);
    if (typeof n.$ref === "string" && !n.$ref.startsWith("#")) out.push(`${at}: remote $ref`);
    if (key !== "not" && !TYPED.some((k) => k in n)) out.push(`${at}: untyped schema`);
    for (const k of ["properties", "$defs", "definitions", "patternProperties"]) {
      for (const [name, sub] of Object.entries((n[k] as Record<string, unknown>) ?? {})) visit(sub, `${at}.${k}.${name}`, k);
    }
    for (const k of ["items", "additionalProperties", "unevaluatedProperties", "not", "contains"]) if (k in n) visit(n[k], `${at}.${k}`, k);
    for (const k of ["anyOf", "oneOf", "allOf", "prefixItems"]) for (const [i, sub] of ((n[k] as unknown[]) ?? []).entries()) visit(sub, `${at}.${k}[${i}]`, k);
  };
  visit(schema, path, "");
  return out;
}
