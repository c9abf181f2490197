/**
 * The guides at /docs/guide (issue 26): every page is served, and every code sample in them is
 * run against the Worker. A sample must say how it is tested (the words after its language):
 * - `sh run`: every `curl` line is sent (with a real key for $KEY and this deployment for $API);
 *   it must answer 2xx, or the status its trailing comment names (`# 401 ...`).
 * - `json answer METHOD /path [body]`: that request's answer must contain the sample (a deep partial match).
 * - `json mcp-config`: a client configuration; it must parse and point at /mcp with the x-api-key header.
 * - `ts sdk` / `python sdk`: an SDK example, type-checked and run against a Worker by that SDK's own
 *   suite (clients/test.sh: clients/typescript/test/guides.test.ts, clients/python/tests/test_guides.py),
 *   which needs Node's and Python's tools; here it must at least name the SDK it uses.
 * - `sql <dialects>` (sqlite, postgres, mysql): a statement on the code mapping table; those naming
 *   sqlite are run on a real mapping file in SQLite by test/node/mapping-sql.test.ts (PostgreSQL and
 *   MySQL are not run anywhere); here it must name the mapping table.
 * - `json webhook-payload`: a webhook body; it must pass the payload schema and carry that edition's
 *   real counts and first changes. `js webhook-receiver` is run by test/node/webhook-samples.test.ts
 *   (Node); `python webhook-receiver` mirrors it and must at least import standardwebhooks and verify.
 * - `sh gdal`: GDAL commands (ogrinfo, ogr2ogr) on the OGC API and the FlatGeobuf files, run by
 *   test/gis/gdal.test.ts against a Worker of its own with GDAL installed; here they must be GDAL's.
 * - `html publishable-page`: a web page calling the API with a publishable key; served on an allowed
 *   origin and opened in Chromium by test/browser/portal.test.ts, here it must call the API with one.
 * A sample without one of these fails the test: no sample goes untested. The bulk export samples
 * download the small export test/setup/exports-subset.ts builds, put into the test R2 first.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { regionReads } from "../../src/db/reads";
import guides from "../../src/site/guides.json";
import { webhookPayload } from "../../src/webhooks/schemas";
import { editionSummary, listChanges } from "../../src/wilayah/history/service";
import { uploadExportSubset } from "../export-subset";
import { BASE, call, json, seedUserWithKey } from "../helpers";

type Sample = (typeof guides.samples)[number];

/** The words of a shell command line, quotes removed ('...' and "..." kept whole). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** A `curl` line as a request: -H headers, -X method, -d body, the URL (-o, the file it is saved to, is ignored); the expected status from a `# NNN` comment. */
function curlRequest(line: string, vars: Record<string, string>) {
  const [command, comment] = line.split(/\s#\s?/, 2);
  const expand = (s: string) => s.replace(/\$([A-Z]+)/g, (_, v: string) => vars[v] ?? `$${v}`);
  const w = words(command).map(expand);
  const headers: Record<string, string> = {};
  let method = "GET";
  let body: string | undefined;
  let url = "";
  for (let i = 1; i < w.length; i++) {
    if (w[i] === "-H") {
      const [k, ...v] = w[++i].split(":");
      headers[k.trim().toLowerCase()] = v.join(":").trim();
    } else if (w[i] === "-X") method = w[++i];
    else if (w[i] === "-o")
      i++; // skips the file curl saves the answer to (bulk exports)
    else if (w[i] === "-d") {
      body = w[++i];
      if (method === "GET") method = "POST";
    } else url = w[i];
  }
  const expected = comment?.match(/^(\d{3})\b/)?.[1];
  return { method, headers, body, url, expected: expected ? Number(expected) : null };
}

describe("the guides", () => {
  it("serves an index and every page, with the site's strict headers and no script in the content", async () => {
    const index = await call("/docs/guide");
    expect(index.status).toBe(200);
    const html = await index.text();
    for (const p of guides.pages) expect(html).toContain(`/docs/guide/${p.slug}`);
    for (const p of guides.pages) {
      const res = await call(`/docs/guide/${p.slug}`);
      expect(res.status, p.slug).toBe(200);
      expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
      const page = await res.text();
      expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
    expect((await json(await call("/docs/guide/nope"))).error.code).toBe("NOT_FOUND");
    // The reference page links the guides.
    expect(await (await call("/docs")).text()).toContain("/docs/guide");
  });

  it("every code sample says how it is tested, and passes", async () => {
    const { secret } = await seedUserWithKey();
    await uploadExportSubset();
    const vars = { KEY: secret, API: `${BASE}/api/v1`, BASE };
    const seen = { run: 0, answer: 0, config: 0, sdk: 0, sql: 0, webhook: 0, page: 0 };
    for (const s of guides.samples as Sample[]) {
      const what = `${s.page}: ${s.lang} ${s.annotation}`;
      if (s.lang === "sh" && s.annotation === "run") {
        for (const line of s.code.split("\n").filter((l) => l.trim().startsWith("curl "))) {
          const r = curlRequest(line, vars);
          const res = await call(r.url.replace(BASE, ""), { method: r.method, headers: r.headers, body: r.body });
          const status = res.status;
          await res.arrayBuffer();
          if (r.expected) expect(status, `${what}: ${line}`).toBe(r.expected);
          else expect(status, `${what}: ${line}`).toBeLessThan(300);
          seen.run++;
        }
      } else if (s.lang === "json" && s.annotation.startsWith("answer ")) {
        const [, method, path, ...rest] = s.annotation.split(" ");
        const body = rest.join(" ") || undefined;
        const res = await call(path, { method, key: secret, body, headers: body ? { "content-type": "application/json" } : {} });
        expect(await json(res), what).toMatchObject(JSON.parse(s.code));
        seen.answer++;
      } else if (s.lang === "json" && s.annotation === "mcp-config") {
        const config = JSON.parse(s.code) as Record<string, Record<string, unknown>>;
        const server = (config.mcpServers ?? config.servers).wilayah as { url?: string; args?: string[]; headers?: Record<string, string> };
        const text = JSON.stringify(server);
        expect(text, what).toContain("/mcp");
        expect(text, what).toContain("x-api-key");
        seen.config++;
      } else if ((s.lang === "ts" || s.lang === "python") && s.annotation === "sdk") {
        expect(s.code, what).toContain(s.lang === "ts" ? 'from "wilayah-api-client"' : "from wilayah_api import");
        seen.sdk++;
      } else if (s.lang === "sql" && s.annotation !== "" && s.annotation.split(" ").every((d) => ["sqlite", "postgres", "mysql"].includes(d))) {
        expect(s.code, what).toContain("wilayah_code_map");
        seen.sql++;
      } else if (s.lang === "json" && s.annotation === "webhook-payload") {
        // What the publisher sends for that edition: the schema, its counts, its first changes.
        const payload = webhookPayload.parse(JSON.parse(s.code));
        const data = payload.data as { edition: string; previous_edition: string; counts: unknown; changes: unknown[]; changes_url: string };
        const edition = await editionSummary(regionReads(env), data.edition);
        expect(data.counts, what).toEqual(edition?.counts);
        expect(data.previous_edition, what).toBe(edition?.previous);
        const first = await listChanges(regionReads(env), { from: data.previous_edition, to: data.edition, page: 1, per_page: data.changes.length });
        expect(data.changes, what).toEqual(first.data);
        expect(data.changes_url, what).toBe(`/api/v1/wilayah/changes?from=${data.previous_edition}&to=${data.edition}`);
        seen.webhook++;
      } else if ((s.lang === "js" || s.lang === "python") && s.annotation === "webhook-receiver") {
        // The JS receiver is run (signed deliveries, a retry, a forgery) by test/node/webhook-samples.test.ts; the Python one mirrors it.
        expect(s.code, what).toMatch(s.lang === "js" ? /from "standardwebhooks"/ : /from standardwebhooks\.webhooks import Webhook/);
        expect(s.code, what).toContain("verify(");
        seen.webhook++;
      } else if (s.lang === "html" && s.annotation === "publishable-page") {
        // Served and opened in Chromium, with a real publishable key, by test/browser/portal.test.ts.
        expect(s.code, what).toContain('"x-api-key": "wk_pub_..."');
        expect(s.code, what).toContain("https://wilayah-api.example.com/api/v1/");
        seen.page++;
      } else if (s.lang === "html" && s.annotation === "map-embed") {
        // The style it loads is ours, and the key goes in a header (never a URL parameter).
        expect(s.code, what).toContain("/tiles/style.json");
        expect(s.code, what).toMatch(/transformRequest[\s\S]*headers: \{ "x-api-key": KEY \}/);
        expect(s.code, what).not.toMatch(/[?&]key=/);
        expect((await call("/tiles/style.json")).status, what).toBe(200);
      } else if (s.lang === "sh" && s.annotation === "gdal") {
        // Run line by line with GDAL against a Worker of its own by test/gis/gdal.test.ts; here: GDAL commands on our routes only.
        for (const line of s.code.trim().split("\n")) expect(line, what).toMatch(/^(export GDAL_HTTP_HEADERS=|ogrinfo |ogr2ogr )/);
        expect(s.code, what).toContain("$BASE/");
      } else {
        throw new Error(
          `${what}: a code sample must say how it is tested (sh run, sh gdal, json answer ..., json mcp-config, ts sdk, python sdk, sql <dialects>, json webhook-payload, js/python webhook-receiver, html publishable-page, html map-embed)`,
        );
      }
    }
    expect(seen.run).toBeGreaterThanOrEqual(8);
    expect(seen.answer).toBeGreaterThanOrEqual(3);
    expect(seen.config).toBe(3);
    expect(seen.sdk).toBeGreaterThanOrEqual(2);
    expect(seen.sql).toBeGreaterThanOrEqual(3);
    expect(seen.webhook).toBe(3);
    expect(seen.page).toBe(1);
  });
});
