/** The portal's bulk jobs page (issue 37) through HTTP: the page, the upload with the CSRF header, progress, the download, metering under `portal`. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AccountObject } from "../../src/account/object";
import { BASE, call, json, login, setPlan } from "../helpers";
import { type Browser, signedUp } from "./browser";

async function upload(b: Browser, query: string, body: string, csrf = b.csrf) {
  return call(`/portal/jobs/upload?${query}`, {
    method: "POST",
    body,
    headers: {
      cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join("; "),
      origin: BASE,
      "content-type": "text/csv",
      accept: "application/json",
      "x-csrf-token": csrf,
    },
  });
}

describe("portal: bulk jobs", () => {
  it("unverified: the page says to verify first and an upload is refused", async () => {
    const { b } = await signedUp();
    const page = await (await b.get("/portal/jobs")).text();
    expect(page).toContain('data-testid="verify-first"');
    const refused = await upload(b, "kind=convert", "code\n32\n");
    expect(refused.status).toBe(403);
    expect((await json(refused)).error.code).toBe("EMAIL_NOT_VERIFIED");
  });

  it("a file uploaded with the page's CSRF token: the job runs, its status is polled, its result downloaded; metered under the portal", async () => {
    const { b, email, link } = await signedUp();
    await b.get(link.pathname + link.search);
    const token = (await json(await login(email, "correct horse"))).token as string;
    const me = (await json(await call("/auth/me", { token }))).data;
    await setPlan(me.id, "internal");
    const page = await (await b.get("/portal/jobs", { "accept-language": "en" })).text();
    expect(page).toContain("data-jobs");
    expect(page).toContain('href="/portal/jobs"');
    expect((await upload(b, "kind=convert", "code\n32\n", "wrong")).status).toBe(403);
    const res = await upload(b, "kind=convert&column=kode", "kode\n32.73\n11.01\n");
    expect(res.status).toBe(202);
    const job = (await json(res)).data;
    expect(job).toMatchObject({ kind: "convert", rows: { total: 2 }, cost: { calls: 2 } });
    let status = job;
    for (let i = 0; i < 200 && status.state !== "done"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await json(await b.get(`/portal/jobs/${job.id}/status`, { accept: "application/json" }))).data;
    }
    expect(status).toMatchObject({ state: "done", rows: { done: 2 } });
    const csv = await (await b.get(`/portal/jobs/${job.id}/result`)).text();
    expect(csv.trim().split("\r\n")).toEqual([
      "row,kode,status,current_id,current_name,current_level,successors",
      "1,32.73,current,32.73,Kota Bandung,kabupaten,",
      "2,11.01,current,11.01,Kabupaten Aceh Selatan,kabupaten,",
    ]);
    const listed = await (await b.get("/portal/jobs")).text();
    expect(listed).toContain(job.id);
    const usage = (await json(await call("/user/usage", { token }))).data;
    expect(usage.by_key).toEqual([{ key_id: "portal", name: null, prefix: null, count: 2 }]);
    // The usage page names the portal's calls for both of its pages; the ledger's job entry is said in the page's language.
    expect(await (await b.get("/portal/usage", { "accept-language": "id" })).text()).toContain("Portal (halaman alamat dan pekerjaan massal)");
    await runInDurableObject(env.ACCOUNT.get(env.ACCOUNT.idFromName(me.id)), (object: AccountObject) => object.flush());
    const billing = await (await b.get("/portal/billing", { "accept-language": "id" })).text();
    expect(billing).toContain(`Pekerjaan massal ${job.id}: 2 baris, 0 di luar kuota bulanan`);
    expect(billing).not.toContain("beyond the monthly quota");
  }, 60_000);

  it("a free account sees what the month allows beside the cost, before the click: quota left and credits, with the way to more", async () => {
    const { b, link } = await signedUp();
    await b.get(link.pathname + link.search);
    const en = await (await b.get("/portal/jobs", { "accept-language": "en" })).text();
    // The free plan's 1,000 calls, none spent yet, no credits: the page's script compares a file's rows with this.
    expect(en).toContain('data-available="1000"');
    expect(en.replaceAll("&#39;", "'")).toContain("This month you can spend 1,000 calls: 1,000 left of your plan's monthly quota of 1,000, and 0 credits.");
    expect(en).toContain('href="/portal/billing"');
    const id = await (await b.get("/portal/jobs", { "accept-language": "id" })).text();
    expect(id).toContain("Bulan ini Anda bisa memakai 1.000 panggilan: sisa 1.000 dari kuota bulanan paket (1.000), dan 0 kredit.");
    // Beyond it, the upload is refused as the page warned, in the page's language, and no job is made.
    const rows = Array.from({ length: 1001 }, (_, i) => String(i % 2 ? "32.73" : "11.01")).join("\n");
    const refused = await upload(b, "kind=convert", `code\n${rows}\n`);
    expect(refused.status).toBe(402);
    expect((await json(refused)).error.code).toBe("QUOTA_EXCEEDED");
    expect(await (await b.get("/portal/jobs")).text()).not.toContain('data-testid="job-list"');
  }, 60_000);
});
