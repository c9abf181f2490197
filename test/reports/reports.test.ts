import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { forgetOpenReports } from "../../src/reports/open";
import { call, createKey, expectError, json, makeAdmin, mcpTool, printed, register, usageOf, verifiedDeveloper } from "../helpers";

const good = { field: "postal_code", value: "40114", evidence: { url: "https://kodepos.example/40114", text: "The post office lists 40114." } };

async function reporter() {
  const dev = await verifiedDeveloper();
  const k = await createKey(dev.token);
  return { ...dev, key: k.key };
}

const file = (key: string, id: string, body: unknown, ip?: string) => call(`/api/v1/wilayah/${id}/reports`, { method: "POST", key, json: body, ip });

afterEach(() => vi.restoreAllMocks());

describe("reporting a wrong fact", () => {
  it("files with an API key or a session, free of charge; lists one's own; audited; unknown region 404", async () => {
    const dev = await reporter();
    const res = await file(dev.key, "3273091001", good);
    expect(res.status).toBe(201);
    const r = (await json(res)).data;
    expect(r).toMatchObject({ region_id: "32.73.09.1001", field: "postal_code", value: "40114", status: "open", answer: null });
    expect(r.id).toMatch(/^rpt_/);
    expect(r.evidence).toEqual({ url: "https://kodepos.example/40114", regulation: null, text: "The post office lists 40114." });
    // a session (the portal's token) files too
    const bySession = await call("/api/v1/wilayah/32.73/reports", {
      method: "POST",
      token: dev.token,
      json: { field: "name", value: "Kota Bandung", evidence: { regulation: "UU 16/1950" } },
    });
    expect(bySession.status).toBe(201);
    // not metered: the month's usage counts no call
    expect((await usageOf(dev.token)).total).toBe(0);
    const mine = await json(await call("/user/reports", { token: dev.token }));
    expect(mine.data.map((x: { region_id: string }) => x.region_id)).toEqual(["32.73", "32.73.09.1001"]);
    expect(mine.meta.total).toBe(2);
    const byKey = await json(await call("/user/reports?status=open&per_page=1", { key: dev.key }));
    expect(byKey.data).toHaveLength(1);
    expect(byKey.meta.total).toBe(2);
    // audited, with the report's id (never the evidence)
    const audited = await env.DB.prepare("SELECT event, actor_id, detail FROM audit_events WHERE event = 'report_filed' AND actor_id = ?")
      .bind(dev.data.id)
      .all();
    expect(audited.results).toHaveLength(2);
    expect(String(audited.results[0].detail)).not.toContain("post office");
    await expectError(await file(dev.key, "32.73.99.9999", good), 404, "NOT_FOUND");
    await expectError(await file(dev.key, "nonsense", good), 404, "NOT_FOUND");
  });

  it("refuses bad input with a clear 400 and a code", async () => {
    const dev = await reporter();
    const cases: [unknown, string][] = [
      [{ ...good, field: "colour" }, "field"],
      [{ ...good, value: "" }, "value"],
      [{ ...good, evidence: {} }, "evidence"],
      [{ ...good, evidence: { url: "javascript:alert(1)" } }, "evidence.url"],
      [{ ...good, evidence: { text: "x".repeat(2_001) } }, "evidence.text"],
      [{ ...good, email: "not-an-email" }, "email"],
      [{ ...good, extra: 1 }, "(root)"],
      [{ field: "name" }, "value"],
    ];
    for (const [body, path] of cases) {
      const err = await expectError(await file(dev.key, "32.73", body), 400, "VALIDATION_ERROR");
      expect(err.details?.map((d) => d.path).join(" "), JSON.stringify(body)).toContain(path);
    }
    await expectError(
      await call("/api/v1/wilayah/32.73/reports", { method: "POST", key: dev.key, body: "{", headers: { "content-type": "application/json" } }),
      400,
      "INVALID_JSON",
    );
    await expectError(await call("/api/v1/wilayah/32.73/reports", { method: "POST", json: good }), 401, "MISSING_API_KEY");
    await expectError(await call("/user/reports?status=maybe", { key: dev.key }), 400, "INVALID_QUERY");
    // an unverified account's session may not report (reports are answered by email)
    const fresh = await register();
    await expectError(await call("/api/v1/wilayah/32.73/reports", { method: "POST", token: fresh.token, json: good }), 403, "EMAIL_NOT_VERIFIED");
  });

  it("is throttled per account and per address (429 with Retry-After)", async () => {
    const a = await reporter();
    for (let i = 0; i < 5; i++) expect((await file(a.key, "32.73", { ...good, field: "other", value: `note ${i}` })).status).toBe(201);
    const limited = await file(a.key, "32.73", { ...good, field: "other", value: "one more" });
    await expectError(limited, 429, "RATE_LIMITED");
    // per address: two accounts behind one address share its budget
    const [b, c] = [await reporter(), await reporter()];
    const ip = "203.0.113.77";
    for (let i = 0; i < 3; i++) expect((await file(b.key, "32", { ...good, field: "other", value: `b ${i}` }, ip)).status).toBe(201);
    for (let i = 0; i < 2; i++) expect((await file(c.key, "32", { ...good, field: "other", value: `c ${i}` }, ip)).status).toBe(201);
    const res = await file(c.key, "32", { ...good, field: "other", value: "c more" }, ip);
    expect(res.headers.get("retry-after")).toBe("60");
    await expectError(res, 429, "RATE_LIMITED");
  });

  it("holds the daily cap of 50 for reports filed at the same moment: never more stored, each stored one audited", async () => {
    const dev = await reporter();
    const now = Date.now();
    const seeded = Array.from({ length: 48 }, (_, i) =>
      env.DB.prepare(
        "INSERT INTO reports (id, user_id, key_id, region_id, field, value, evidence_text, status, created_at) VALUES (?, ?, 'portal', '32', 'other', ?, 'seeded', 'rejected', ?)",
      ).bind(`rpt_cap${i}_${dev.data.id}`, dev.data.id, `seeded ${i}`, now - 1_000),
    );
    await env.DB.batch(seeded);
    const answers = await Promise.all(
      [0, 1, 2, 3].map((i) => file(dev.key, "32.73", { ...good, field: "other", value: `at once ${i}` }, `198.51.100.${10 + i}`)),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 429, 429]);
    for (const r of answers) if (r.status === 429) expect((await json(r)).error.code).toBe("RATE_LIMITED");
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM reports WHERE user_id = ?").bind(dev.data.id).first<{ n: number }>();
    expect(stored?.n).toBe(50);
    const audited = await env.DB.prepare("SELECT count(*) AS n FROM audit_events WHERE event = 'report_filed' AND actor_id = ?")
      .bind(dev.data.id)
      .first<{ n: number }>();
    expect(audited?.n).toBe(2);
  });

  it("by-id answers carry open_reports (after the cache) until the report is decided; a rejection's answer is listed and emailed", async () => {
    const dev = await reporter();
    const admin = await makeAdmin();
    const id = "35.13.15.2017";
    const before = await call(`/api/v1/wilayah/${id}`, { key: dev.key });
    expect((await json(before)).data.open_reports).toBeUndefined();
    const r = (
      await json(await file(dev.key, id, { field: "name", value: "Sumberanyar Baru", evidence: { text: "the village office sign" }, email: dev.data.email }))
    ).data;
    // the same answer from the cache, with the count of this isolate's set
    const after = await call(`/api/v1/wilayah/${id}`, { key: dev.key });
    expect(after.headers.get("x-cache")).toBe("HIT");
    expect((await json(after)).data.open_reports).toBe(1);
    expect((await json(await call(`/api/v1/wilayah/kelurahan/${id.replaceAll(".", "")}`, { key: dev.key }))).data.open_reports).toBe(1);
    // another isolate's view: read again from D1
    forgetOpenReports();
    expect((await json(await call(`/api/v1/wilayah/${id}`, { key: dev.key }))).data.open_reports).toBe(1);
    const mcp = await mcpTool(dev.key, "wilayah_detail", { id });
    expect(mcp.structuredContent.data.open_reports).toBe(1);

    const log = vi.spyOn(console, "log");
    const res = await call(`/admin/reports/${r.id}`, {
      method: "PATCH",
      token: admin.token,
      json: { status: "rejected", answer: "The decree spells it Sumberanyar." },
    });
    expect(res.status).toBe(200);
    expect((await json(res)).data).toMatchObject({ status: "rejected", answer: "The decree spells it Sumberanyar.", basis: null });
    const mails = await printed(
      log,
      new RegExp(`\\[console mailer\\] to ${dev.data.email.replaceAll(".", "\\.")}: Your report on 35\\.13\\.15\\.2017 was rejected`),
    );
    expect(mails).toHaveLength(1);
    expect(log.mock.calls.flat().join("\n")).toContain("The decree spells it Sumberanyar.");
    const mine = (await json(await call("/user/reports", { key: dev.key }))).data[0];
    expect(mine).toMatchObject({ id: r.id, status: "rejected", answer: "The decree spells it Sumberanyar." });
    expect((await json(await call(`/api/v1/wilayah/${id}`, { key: dev.key }))).data.open_reports).toBeUndefined();
    // a decision is final
    await expectError(
      await call(`/admin/reports/${r.id}`, { method: "PATCH", token: admin.token, json: { status: "accepted", answer: "Yes after all", basis: "x y z" } }),
      409,
      "REPORT_CLOSED",
    );
    const audited = await env.DB.prepare("SELECT actor_id, subject_id FROM audit_events WHERE event = 'report_reviewed' AND detail LIKE ?")
      .bind(`%${r.id}%`)
      .first();
    expect(audited).toEqual({ actor_id: admin.data.id, subject_id: dev.data.id });
  });

  it("admins see the queue (filters, duplicates grouped) and accept with a basis; the value is checked as the seed applies it", async () => {
    const [a, b] = [await reporter(), await reporter()];
    const admin = await makeAdmin();
    const id = "32.73.09.1001";
    const first = (await json(await file(a.key, id, { ...good, value: "40115" }))).data;
    const second = (await json(await file(b.key, id.replaceAll(".", ""), { ...good, value: " 40115 " }))).data;
    const q = await json(await call(`/admin/reports?status=open&field=postal_code&region_id=${id}`, { token: admin.token }));
    const mine = q.data.filter((x: { id: string }) => x.id === first.id || x.id === second.id);
    expect(mine).toHaveLength(2);
    expect(mine[0].same).toContain(second.id);
    expect(mine[1].same).toContain(first.id);
    expect(mine[0]).toMatchObject({ user_id: a.data.id, key_id: expect.stringMatching(/^key_/) });
    await expectError(await call("/admin/reports?field=colour", { token: admin.token }), 400, "INVALID_QUERY");
    await expectError(await call("/admin/reports", { token: a.token }), 403, "FORBIDDEN");

    // bad decisions
    await expectError(
      await call(`/admin/reports/${first.id}`, { method: "PATCH", token: admin.token, json: { status: "accepted", answer: "ok" } }),
      400,
      "VALIDATION_ERROR",
    );
    await expectError(
      await call(`/admin/reports/${first.id}`, { method: "PATCH", token: admin.token, json: { status: "open", answer: "hmm" } }),
      400,
      "VALIDATION_ERROR",
    );
    const badValue = await call(`/admin/reports/${first.id}`, {
      method: "PATCH",
      token: admin.token,
      json: { status: "accepted", answer: "Right.", basis: "Pos Indonesia list", value: "4011" },
    });
    expect((await expectError(badValue, 400, "VALIDATION_ERROR")).message).toContain("5 digits");
    await expectError(
      await call("/admin/reports/rpt_nope", { method: "PATCH", token: admin.token, json: { status: "rejected", answer: "no no" } }),
      404,
      "NOT_FOUND",
    );

    const log = vi.spyOn(console, "log");
    const accepted = await call(`/admin/reports/${first.id}`, {
      method: "PATCH",
      token: admin.token,
      json: { status: "accepted", answer: "Right, thank you.", basis: "Pos Indonesia, kodepos list 2026" },
    });
    expect((await json(accepted)).data).toMatchObject({
      status: "accepted",
      basis: "Pos Indonesia, kodepos list 2026",
      accepted_value: "40115",
      reviewed_by: admin.data.id,
    });
    expect(await printed(log, new RegExp(`to ${a.data.email.replace(/[.]/g, "\\.")}: Your report on 32\\.73\\.09\\.1001 was accepted`))).toHaveLength(1);
    const dup = await call(`/admin/reports/${second.id}`, { method: "PATCH", token: admin.token, json: { status: "duplicate", duplicate_of: first.id } });
    expect((await json(dup)).data).toMatchObject({ status: "duplicate", duplicate_of: first.id });
    const bView = (await json(await call("/user/reports", { key: b.key }))).data[0];
    expect(bView).toMatchObject({ status: "duplicate", duplicate_of: first.id });
    const accQ = await json(await call(`/admin/reports?status=accepted&region_id=${id}`, { token: admin.token }));
    expect(accQ.data.map((x: { id: string }) => x.id)).toContain(first.id);
  });

  it("open_reports costs a by-id call no D1 read: a cached answer with the count reads nothing", async () => {
    const dev = await reporter();
    const id = "32.73.09.1002";
    await file(dev.key, id, { field: "name", value: "Cicadas Baru", evidence: { text: "sign" } });
    expect((await call(`/api/v1/wilayah/${id}`, { key: dev.key })).status).toBe(200); // fills the cache (and the isolate's set, if it was empty)
    Object.assign(env, { D1_STATS: "on" });
    try {
      const res = await call(`/api/v1/wilayah/${id}`, { key: dev.key });
      expect(res.headers.get("x-cache")).toBe("HIT");
      expect(res.headers.get("x-d1-queries")).toBe("0");
      expect(res.headers.get("x-d1-rows-read")).toBe("0");
      expect((await json(res)).data.open_reports).toBe(1);
    } finally {
      Object.assign(env, { D1_STATS: "off" });
    }
  });

  it("agents report through the MCP tool wilayah_report (same rules)", async () => {
    const dev = await reporter();
    const ok = await mcpTool(dev.key, "wilayah_report", { id: "32.73", field: "coordinates", value: "-6.91,107.61", evidence: { text: "OpenStreetMap node" } });
    expect(ok.isError).toBeFalsy();
    expect(ok.structuredContent.data).toMatchObject({ region_id: "32.73", field: "coordinates", status: "open" });
    const bad = await mcpTool(dev.key, "wilayah_report", { id: "32.73", field: "coordinates", value: "x", evidence: {} });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad)).toContain("VALIDATION_ERROR");
    const unknown = await mcpTool(dev.key, "wilayah_report", { id: "99.99", field: "name", value: "x", evidence: { text: "y" } });
    expect(JSON.stringify(unknown)).toContain("NOT_FOUND");
  });
});
