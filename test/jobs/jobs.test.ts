/**
 * Bulk jobs through the public surface (/api/v1/jobs) and the real queue: a file in, every row
 * answered once and in order, charged one call per row, one ledger entry per job; bad files refused
 * with their line and nothing charged.
 */
import { createExecutionContext, createScheduledController, runInDurableObject, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { AccountObject } from "../../src/account/object";
import worker from "../../src/index";
import { processChunk } from "../../src/jobs/consumer";
import { csvLine, parseCsvRows } from "../../src/lib/csv";
import world from "../fixtures/address-world.json";
import { call, createKey, expectError, json, mcpTool, seedUserWithKey, setPlan, usageOf, verifiedDeveloper } from "../helpers";
import { createHook, receiver, waitFor } from "../webhooks/helpers";

const text = async (res: Response) => new TextDecoder().decode(await res.arrayBuffer());

const upload = (key: string, query: string, body: string, type = "text/csv") =>
  call(`/api/v1/jobs?${query}`, { method: "POST", key, headers: { "content-type": type }, body });

async function finished(key: string, id: string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const job = (await json(await call(`/api/v1/jobs/${id}`, { key }))).data;
    if (["done", "failed", "cancelled"].includes(job.state)) return job;
    if (Date.now() > until) throw new Error(`job ${id} still ${job.state}: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("bulk jobs", () => {
  it("an address CSV of 2,500 rows: every row answered once, in input order, with its own columns; one call per row; one ledger entry", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "internal");
    const { key } = await createKey(dev.token);
    const rows = (world as { npsn: string; text: string; kecamatan_id: string }[]).slice(0, 2_500);
    const csv = [csvLine(["npsn", "alamat"]), ...rows.map((r) => csvLine([r.npsn, r.text]))].join("\r\n");
    const res = await upload(key, "kind=address&column=alamat", csv);
    expect(res.status).toBe(202);
    const job = (await json(res)).data;
    expect(job).toMatchObject({
      id: expect.stringMatching(/^job_/),
      kind: "address",
      state: "queued",
      rows: { total: 2_500, done: 0 },
      chunks: { total: 3, done: 0 },
      cost: { calls: 2_500, credits_reserved: 0 },
      input: { format: "csv", column: "alamat", header: ["npsn", "alamat"] },
      result: null,
    });
    const done = await finished(key, job.id);
    expect(done).toMatchObject({ state: "done", rows: { total: 2_500, done: 2_500 }, chunks: { total: 3, done: 3 }, result: `/api/v1/jobs/${job.id}/result` });
    // the rows were answered from the data a single call reads now (one version: no seed came between)
    const version = (await call("/api/v1/wilayah/provinsi/32", { key })).headers.get("x-data-version");
    expect(done.data_versions).toEqual([version]);

    const result = await call(`/api/v1/jobs/${job.id}/result`, { key });
    expect(result.status).toBe(200);
    expect(result.headers.get("content-type")).toMatch(/^text\/csv/);
    const table = parseCsvRows(await text(result), { crlf: true });
    expect(table[0].slice(0, 4)).toEqual(["row", "npsn", "alamat", "provinsi_id"]);
    const body = table.slice(1);
    expect(body.map((r) => Number(r[0]))).toEqual(rows.map((_, i) => i + 1));
    expect(body.map((r) => r[1])).toEqual(rows.map((r) => r.npsn));
    const kecamatan = table[0].indexOf("kecamatan_id");
    const right = body.filter((r, i) => r[kecamatan] === rows[i].kecamatan_id).length;
    expect(right / rows.length).toBeGreaterThan(0.99); // the single endpoint's quality (address:quality --world)

    const jsonl = (await text(await call(`/api/v1/jobs/${job.id}/result?format=jsonl`, { key }))).trim().split("\n");
    expect(jsonl).toHaveLength(2_500);
    expect(JSON.parse(jsonl[0])).toMatchObject({ row: 1, input: [rows[0].npsn, rows[0].text], answer: { input: rows[0].text } });

    const usage = await usageOf(dev.token);
    expect(usage.by_endpoint).toContainEqual({ endpoint: "/jobs/address", count: 2_500 });
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(dev.data.id));
    await runInDurableObject(stub, (object: AccountObject) => object.flush());
    const ledger = (await json(await call("/billing/credits", { token: dev.token }))).data.ledger;
    expect(ledger).toContainEqual(expect.objectContaining({ amount: 0, reason: `bulk job ${job.id}: 2,500 rows, 0 beyond the monthly quota` }));
  }, 120_000);

  it("a convert job in JSON Lines: codes of earlier editions to today's", async () => {
    const { secret } = await seedUserWithKey();
    const lines = ['{"id":1,"code":"32.73"}', '{"id":2,"code":"3273"}', "", '{"id":3,"code":"99.99"}', '{"id":4,"code":""}'].join("\n");
    const res = await upload(secret, "kind=convert", lines, "application/x-ndjson");
    expect(res.status).toBe(202);
    const job = await finished(secret, (await json(res)).data.id);
    expect(job).toMatchObject({ state: "done", rows: { total: 4, done: 4, warned: 2 } });
    const out = (await text(await call(`/api/v1/jobs/${job.id}/result?format=jsonl`, { key: secret })))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(out.map((r) => [r.row, r.input.id, r.answer?.status ?? null])).toEqual([
      [1, 1, "current"],
      [2, 2, "current"],
      [3, 3, "unknown"],
      [4, 4, null],
    ]);
  }, 120_000);

  it("a convert job of BPS codes (from=bps, issue 39): each as POST /wilayah/convert with from bps answers it", async () => {
    const { secret } = await seedUserWithKey();
    const res = await upload(
      secret,
      "kind=convert&from=bps&column=kode_bps",
      `${["kode_bps", "3273", "3273190", "3273190001", "9999999"].join("\n")}\n`,
      "text/csv",
    );
    expect(res.status).toBe(202);
    const accepted = (await json(res)).data;
    expect(accepted).toMatchObject({ kind: "convert", from: "bps" });
    const job = await finished(secret, accepted.id);
    expect(job).toMatchObject({ state: "done", from: "bps", rows: { total: 4, done: 4, warned: 1 } });
    const table = parseCsvRows(await text(await call(`/api/v1/jobs/${job.id}/result`, { key: secret })), { crlf: true });
    const at = (name: string) => table[0].indexOf(name);
    expect(table.slice(1).map((r) => [r[1], r[at("status")], r[at("current_id")]])).toEqual([
      ["3273", "current", "32.73"],
      ["3273190", "current", "32.73.06"],
      ["3273190001", "current", "32.73.06.1002"],
      ["9999999", "unknown", ""],
    ]);
    // from is for convert jobs only, and says one of two systems
    await expectError(await upload(secret, "kind=address&from=bps", "address\nBandung\n"), 400, "VALIDATION_ERROR");
    await expectError(await upload(secret, "kind=convert&from=bpss", "code\n3273\n"), 400, "INVALID_QUERY");
  }, 120_000);

  it("bad files: a clear 400 with the line, 415 for another media type, 402 beyond quota and credits; nothing created or charged", async () => {
    const { userId, secret } = await seedUserWithKey();
    await expectError(await upload(secret, "kind=address&column=alamat", "id,kota\n1,Bandung\n"), 400, "VALIDATION_ERROR");
    const long = await upload(secret, "kind=address&column=alamat", `alamat\nBandung\n${"x".repeat(501)}\n`);
    expect((await expectError(long, 400, "VALIDATION_ERROR")).message).toBe("Line 3: the value is 501 characters long; at most 500 are read.");
    await expectError(await upload(secret, "kind=address&column=alamat", ""), 400, "VALIDATION_ERROR");
    await expectError(await upload(secret, "kind=address", "{}", "application/json"), 415, "UNSUPPORTED_MEDIA_TYPE");
    await expectError(await upload(secret, "kind=teleport", "code\n32\n"), 400, "INVALID_QUERY");
    await expectError(await call("/api/v1/jobs", { method: "POST", body: "code\n32\n" }), 401, "MISSING_API_KEY");

    await env.DB.prepare(
      "INSERT OR IGNORE INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES ('tinyjobs', 'Tiny', 0, 3, 30, '[]', 53, 0)",
    ).run();
    await setPlan(userId, "tinyjobs");
    const refused = await upload(secret, "kind=convert", "code\n32\n33\n34\n35\n");
    expect((await expectError(refused, 402, "QUOTA_EXCEEDED")).message).toMatch(/^This job is 4 rows/);
    expect((await json(await call("/api/v1/jobs", { key: secret }))).data).toEqual([]);
    // 3 rows fit the quota
    expect((await upload(secret, "kind=convert", "code\n32\n33\n34\n")).status).toBe(202);
  });

  it("another account's job is not found; a job is cancelled once", async () => {
    const a = await seedUserWithKey();
    const b = await seedUserWithKey();
    const job = (await json(await upload(a.secret, "kind=convert", "code\n32\n"))).data;
    await expectError(await call(`/api/v1/jobs/${job.id}`, { key: b.secret }), 404, "NOT_FOUND");
    await expectError(await call(`/api/v1/jobs/${job.id}`, { method: "DELETE", key: b.secret }), 404, "NOT_FOUND");
    const settled = await finished(a.secret, job.id);
    await expectError(await call(`/api/v1/jobs/${job.id}`, { method: "DELETE", key: a.secret }), 409, "JOB_FINISHED");
    expect(settled.state).toBe("done");
  }, 120_000);

  it("a chunk delivered again (or by a consumer that died after its work) changes nothing: rows, result and charge counted once", async () => {
    const { userId, secret } = await seedUserWithKey();
    const codes = Array.from({ length: 1_500 }, (_, i) => (i % 2 ? "32.73" : "11.01"));
    const job = (await json(await upload(secret, "kind=convert", ["code", ...codes].join("\n")))).data;
    const first = await finished(secret, job.id);
    expect(first).toMatchObject({ state: "done", rows: { done: 1_500 }, chunks: { total: 2, done: 2 } });
    const before = await text(await call(`/api/v1/jobs/${job.id}/result`, { key: secret }));
    // the same message for chunk 0, twice more, as if the job were still running
    await env.DB.prepare("UPDATE jobs SET state = 'running' WHERE id = ?").bind(job.id).run();
    const chunk0 = { job: job.id, chunk: 0, offset: "code\n".length, length: 1_000 * 6, firstRow: 1, line: 2 };
    await processChunk(env, chunk0);
    await processChunk(env, chunk0);
    await env.DB.prepare("UPDATE jobs SET state = 'done' WHERE id = ?").bind(job.id).run();
    expect((await json(await call(`/api/v1/jobs/${job.id}`, { key: secret }))).data).toMatchObject({ rows: { done: 1_500 }, chunks: { done: 2 } });
    expect(await text(await call(`/api/v1/jobs/${job.id}/result`, { key: secret }))).toBe(before);
    const usage = await env.ACCOUNT.get(env.ACCOUNT.idFromName(userId)).usage(new Date().toISOString().slice(0, 7));
    expect(usage.filter((r) => r.endpoint === "/jobs/convert").reduce((n, r) => n + r.count, 0)).toBe(1_500);
  }, 120_000);

  it("the cron deletes a job's files and rows once it is past its 7 days", async () => {
    const { secret, userId } = await seedUserWithKey();
    const job = await finished(secret, (await json(await upload(secret, "kind=convert", "code\n32\n"))).data.id);
    expect((await env.JOBS.list({ prefix: `jobs/${job.id}/` })).objects.map((o) => o.key).sort()).toEqual([
      `jobs/${job.id}/chunks`,
      `jobs/${job.id}/input`,
      `jobs/${job.id}/out/0`,
    ]);
    await env.DB.prepare("UPDATE jobs SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, job.id)
      .run();
    const cron = async () => {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ cron: "*/5 * * * *" }), env, ctx);
      await waitOnExecutionContext(ctx);
    };
    // The account object keeps the job's charged chunks until its ledger entry is written: until
    // then the job waits for a later run (nothing is deleted), then it goes everywhere.
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(userId));
    const reservation = () => runInDurableObject(stub, (o: AccountObject) => o.sql<{ written: number }>`SELECT written FROM jobs WHERE id = ${job.id}`);
    if ((await reservation())[0]?.written === 0) {
      await cron();
      expect((await json(await call(`/api/v1/jobs/${job.id}`, { key: secret }))).data.id).toBe(job.id);
    }
    await runInDurableObject(stub, (o: AccountObject) => o.flush());
    await cron();
    expect((await env.JOBS.list({ prefix: `jobs/${job.id}/` })).objects).toEqual([]);
    await expectError(await call(`/api/v1/jobs/${job.id}`, { key: secret }), 404, "NOT_FOUND");
    expect(await reservation()).toEqual([]);
    expect(await runInDurableObject(stub, (o: AccountObject) => o.sql`SELECT * FROM job_chunks WHERE job_id = ${job.id}`)).toEqual([]);
  }, 120_000);

  it("MCP jobs_status: an agent reports on a job started elsewhere (one by id, or the latest); not metered; another account's is not found", async () => {
    const a = await seedUserWithKey();
    const b = await seedUserWithKey();
    const job = await finished(a.secret, (await json(await upload(a.secret, "kind=convert", "code\n32\n33\n"))).data.id);
    const one = await mcpTool(a.secret, "jobs_status", { id: job.id });
    expect(one.isError).toBeFalsy();
    expect(one.structuredContent.data).toEqual([job]);
    expect((await mcpTool(a.secret, "jobs_status", {})).structuredContent.data.map((j: { id: string }) => j.id)).toEqual([job.id]);
    const other = await mcpTool(b.secret, "jobs_status", { id: job.id });
    expect(other.isError).toBe(true);
    expect(JSON.parse((other as unknown as { content: { text: string }[] }).content[0].text).error.code).toBe("NOT_FOUND");
    const bad = await mcpTool(a.secret, "jobs_status", { id: ["job_1"] });
    expect(JSON.parse((bad as unknown as { content: { text: string }[] }).content[0].text).error.code).toBe("INVALID_QUERY");
    const usage = await env.ACCOUNT.get(env.ACCOUNT.idFromName(a.userId)).usage(new Date().toISOString().slice(0, 7));
    expect(usage.map((r) => r.endpoint)).toEqual(["/jobs/convert"]);
  }, 120_000);

  it("webhooks: the account's endpoints subscribed to job.completed hear of its job, signed; another account's do not", async () => {
    const host = `jobs-${crypto.randomUUID().slice(0, 8)}.receiver.test`;
    const r = receiver(host);
    try {
      const dev = await verifiedDeveloper();
      await setPlan(dev.data.id, "internal");
      const hook = await createHook(dev.token, { url: `https://${host}/hook`, events: ["job.completed", "job.failed"] });
      const other = await verifiedDeveloper();
      await createHook(other.token, { url: `https://${host}/other`, events: ["job.completed"] });
      const { key } = await createKey(dev.token);
      const job = await finished(key, (await json(await upload(key, "kind=convert", "code\n32\n"))).data.id);
      await waitFor(() => r.received.length >= 1 || undefined, 20_000);
      await new Promise((done) => setTimeout(done, 500));
      expect(r.received.map((x) => new URL(x.url).pathname)).toEqual(["/hook"]);
      const payload = new Webhook(hook.secret).verify(r.received[0].body, r.received[0].headers);
      expect(payload).toMatchObject({
        type: "job.completed",
        data: {
          job: { id: job.id, kind: "convert", state: "done", rows: { total: 1, done: 1, warned: 0 }, error: null, result_url: `/api/v1/jobs/${job.id}/result` },
        },
      });
    } finally {
      r.restore();
    }
  }, 120_000);

  it("a multipart form (curl -F kind=… -F column=… -F file=@…): the file streamed as the raw body would be; its kind required", async () => {
    const { secret } = await seedUserWithKey();
    const form = new FormData();
    form.set("kind", "convert");
    form.set("column", "kode");
    form.set("file", new File(["id,kode\n1,32.73\n2,11.01\n"], "codes.csv", { type: "text/csv" }));
    const res = await call("/api/v1/jobs", { method: "POST", key: secret, body: form });
    expect(res.status).toBe(202);
    const job = await finished(secret, (await json(res)).data.id);
    expect(job).toMatchObject({ state: "done", kind: "convert", input: { format: "csv", column: "kode", header: ["id", "kode"] }, rows: { done: 2 } });
    const jsonl = new FormData();
    jsonl.set("kind", "convert");
    jsonl.set("file", new File(['{"code":"32"}\n'], "codes.jsonl"));
    expect((await json(await call("/api/v1/jobs", { method: "POST", key: secret, body: jsonl }))).data.input.format).toBe("jsonl");
    const noKind = new FormData();
    noKind.set("file", new File(["code\n32\n"], "c.csv"));
    expect((await expectError(await call("/api/v1/jobs", { method: "POST", key: secret, body: noKind }), 400, "VALIDATION_ERROR")).message).toMatch(/kind/);
    const noFile = new FormData();
    noFile.set("kind", "convert");
    await expectError(await call("/api/v1/jobs", { method: "POST", key: secret, body: noFile }), 400, "VALIDATION_ERROR");
  }, 120_000);
});
