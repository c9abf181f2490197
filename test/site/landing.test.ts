/** The front door (issue 26): the landing page, its demo (with and without JavaScript), the data's status. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectError, json } from "../helpers";

const html = async (res: Response) => {
  expect(res.headers.get("content-type")).toContain("text/html");
  return res.text();
};

describe("GET / (landing page)", () => {
  it("says what the API is, shows the data, pricing from the plan catalog, examples for this deployment, and links onward, with the portal's strict headers", async () => {
    const res = await call("/", { headers: { "accept-language": "en" } });
    expect(res.status).toBe(200);
    const page = await html(res);
    expect(page).toContain("Indonesia&#39;s administrative regions as an API");
    for (const link of ['href="/docs/guide"', 'href="/docs"', 'href="/portal"', 'href="/status"', 'href="/portal/signup"', 'href="/openapi.json"'])
      expect(page).toContain(link);
    // Pricing is the catalog's: every public plan, never a second copy of the numbers.
    const plans = (await env.DB.prepare("SELECT name, monthly_quota FROM plans WHERE is_public = 1").all<{ name: string; monthly_quota: number }>()).results;
    expect(plans.length).toBeGreaterThan(1);
    for (const p of plans) expect(page).toContain(p.name);
    expect(page).toContain("83,762");
    expect(page).toContain("ODbL");
    // Examples name this deployment; MCP configurations for the three clients.
    expect(page).toContain("https://api.wilayah.test/api/v1/wilayah/search?q=gambir%20jakarta");
    for (const client of ["mcp-remote", ".cursor/mcp.json", ".vscode/mcp.json"]) expect(page).toContain(client);
    // No inline script or event handler; CSP as the portal's.
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/\son[a-z]+=/);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
  });

  it("is in Indonesian unless the reader asks for English", async () => {
    const page = await html(await call("/", { headers: { "accept-language": "id-ID,id;q=0.9" } }));
    expect(page).toContain("Wilayah administratif Indonesia sebagai API");
    expect(page).toContain('lang="id"');
    const toggle = await call("/lang/en?next=/", { redirect: "manual" });
    expect(toggle.status).toBe(303);
    expect(toggle.headers.get("location")).toBe("/");
    expect(toggle.headers.get("set-cookie")).toContain("wl_lang=en");
    expect((await call("/lang/en?next=https://evil.example/", { redirect: "manual" })).headers.get("location")).toBe("/");
  });

  it("answers the demo's forms itself, without JavaScript: search and reverse geocoding", async () => {
    const searched = await html(await call("/?q=gambir%20jakarta", { headers: { "accept-language": "en" } }));
    expect(searched).toContain("Gambir");
    expect(searched).toContain("31.71.01");
    // every result offers the portal's report form for its region (issue 40)
    expect(searched).toContain('<a class="report-link" href="/portal/report?region=31.71.01">Report a problem</a>');
    const reversed = await html(await call("/?lat=-6.90827&lng=107.626971", { headers: { "accept-language": "en" } }));
    expect(reversed).toContain("Cihapit");
    expect(reversed).toContain("32.73.09.1001");
    const bad = await html(await call("/?q=a", { headers: { "accept-language": "en" } }));
    expect(bad).toContain('class="notice err"');
  });
});

describe("/demo/* (no key, a few results, limited per client IP, metered to nobody)", () => {
  it("search: at most 5 results, says it is a demo", async () => {
    const res = await call("/demo/search?q=bandung");
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.demo).toBe(true);
    expect(body.note).toMatch(/Demo/);
    expect(body.data.length).toBe(5);
    expect(body.meta.total).toBeGreaterThan(5);
    expect(Object.keys(body.data[0]).sort()).toEqual(["id", "level", "name", "parent"]);
    expect(body.data[0]).toMatchObject({ id: "32.04", name: "Kabupaten Bandung", level: "kabupaten", parent: "Jawa Barat" });
  });

  it("reverse geocoding; errors in the contract's shape", async () => {
    const body = await json(await call("/demo/reverse?lat=-6.90827&lng=107.626971"));
    expect(body).toMatchObject({ demo: true, data: { kelurahan: { id: "32.73.09.1001", name: "Cihapit" } } });
    await expectError(await call("/demo/reverse?lat=-5&lng=100"), 404, "NOT_FOUND");
    await expectError(await call("/demo/reverse?lat=95&lng=100"), 400, "INVALID_QUERY");
    await expectError(await call("/demo/search"), 400, "INVALID_QUERY");
    await expectError(await call("/demo/search?q=bandung&per_page=100"), 400, "INVALID_QUERY");
  });

  it("a client gets 20 demo requests a minute, then 429 with Retry-After; another client is not affected", async () => {
    const ip = "203.0.113.77";
    for (let i = 0; i < 20; i++) expect((await call("/demo/search?q=bali", { ip })).status).toBe(200);
    const limited = await call("/demo/search?q=bali", { ip });
    await expectError(limited.clone(), 429, "RATE_LIMITED");
    expect(limited.headers.get("retry-after")).toBe("60");
    expect((await call("/demo/search?q=bali", { ip: "203.0.113.78" })).status).toBe(200);
  });
});

describe("GET /status", () => {
  it("names the regulation, the seed and whether D1 holds it, and the counts", async () => {
    const body = await json(await call("/status"));
    expect(body.data).toMatchObject({ seed: { loaded: true }, counts: { provinsi: 38, kabupaten: 514, kecamatan: 7285, kelurahan: 83762 } });
    expect(body.data.data_version).toContain("2138/2025");
  });

  it("the JSON names every field in snake_case, like the rest of the API (issue 41)", async () => {
    const res = await call("/status", { headers: { accept: "*/*" } });
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.headers.get("vary")?.toLowerCase()).toContain("accept");
    const body = await json(res);
    const keys: string[] = [];
    const walk = (v: unknown) => {
      if (v && typeof v === "object" && !Array.isArray(v))
        for (const [k, x] of Object.entries(v)) {
          keys.push(k);
          walk(x);
        }
    };
    walk(body);
    expect(keys.filter((k) => !/^[a-z0-9]+(_[a-z0-9]+)*$/.test(k))).toEqual([]);
    expect(body.data).toMatchObject({ with_coordinates: { filled: 91_239, total: 91_599 }, villages_with_postal: 83_762 });
  });

  it("a browser gets a page for people with the same facts; a client asking for JSON still gets JSON", async () => {
    const page = await call("/status", { headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "accept-language": "en" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
    const html = await page.text();
    expect(html).toContain('<h2 id="data-title">');
    expect(html).toContain("2138/2025");
    expect(html).toMatch(/91[,.]239 \/ 91[,.]599/);
    expect(html).toContain("loaded in D1");
    const asJson = await call("/status", { headers: { accept: "application/json, text/html" } });
    expect(asJson.headers.get("content-type")).toContain("application/json");
  });
});
