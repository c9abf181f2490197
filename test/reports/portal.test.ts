import { afterEach, describe, expect, it, vi } from "vitest";
import { call, json, makeAdmin, printed, uniqueEmail, verifyLinkFrom } from "../helpers";
import { Browser, signedUp } from "../portal/browser";

afterEach(() => vi.restoreAllMocks());

/** A signed-up portal user whose email is verified (the emailed link opened in the same browser). */
async function verifiedPortalUser() {
  const { b, link, email } = await signedUp();
  await b.get(link.pathname + link.search);
  await b.get("/portal/lang/en");
  return Object.assign(b, { email });
}

describe("the portal's report pages (forms, through HTTP)", () => {
  it("signed out: the form and the list go to login; the queue too", async () => {
    for (const path of ["/portal/report?region=32.73", "/portal/reports", "/portal/admin/reports"]) {
      const res = await call(path, { redirect: "manual" });
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location")).toBe("/portal/login");
    }
  });

  it("files a report through the form (CSRF checked), answers a bad form with the fields named, lists it; an unknown region is a 404 page", async () => {
    const b = await verifiedPortalUser();
    const form = await b.get("/portal/report?region=3273091001&field=postal_code");
    expect(form.status).toBe(200);
    expect(b.last).toContain("Cihapit (32.73.09.1001, kelurahan)");
    expect(b.last).toMatch(/<option value="postal_code" selected="">/);
    // no address to type: the answer goes only to the account's verified email, which the form names
    expect(b.last).not.toMatch(/name="email"/);
    expect(b.last).toContain(`verified address, ${b.email}.`);
    const fields = { region: "32.73.09.1001", field: "postal_code", value: "40199", url: "", regulation: "", text: "" };
    // no evidence: the form again, 400, naming it
    const bad = await b.post("/portal/report", fields);
    expect(bad.status).toBe(400);
    expect(b.last).toContain("evidence");
    expect(b.last).toContain('value="40199"'); // what was typed is kept
    // another site's form (no CSRF token) is refused
    const forged = await b.post("/portal/report", { ...fields, text: "x" }, { csrf: "nope" });
    expect(forged.status).toBe(403);
    const ok = await b.post("/portal/report", { ...fields, text: "The post office stamps 40199." });
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/portal/reports?msg=report_filed");
    await b.get("/portal/reports?msg=report_filed");
    expect(b.last).toContain("your report was sent");
    expect(b.last).toMatch(/data-testid="own-report"[\s\S]*32\.73\.09\.1001[\s\S]*40199[\s\S]*open/);
    expect((await b.get("/portal/report?region=99.99")).status).toBe(404);
    // not an admin: the queue is refused
    expect((await b.get("/portal/admin/reports")).status).toBe(403);
  });

  it("the emails are in the language of the page the person was on: the sign-up's verification and a report's decision, in Indonesian", async () => {
    const b = new Browser();
    const log = vi.spyOn(console, "log");
    await b.get("/portal/signup", { "accept-language": "id-ID" });
    const email = uniqueEmail();
    expect((await b.post("/portal/signup", { name: "Sari", email, password: "correct horse" })).status).toBe(303);
    const [verify] = await printed(
      log,
      new RegExp(`\\[console mailer\\] to ${email.replace(/[.]/g, "\\.")}: Verifikasi email Anda untuk Wilayah API[\\s\\S]*?abaikan pesan ini\\.`),
    );
    expect(verify).toContain("Buka tautan ini untuk memverifikasi alamat email Anda (berlaku 24 jam)");
    const link = verifyLinkFrom(log);
    await b.get(link.pathname + link.search);
    await b.get("/portal/report?region=32.73.09.1001", { "accept-language": "id-ID" });
    const filed = await b.post("/portal/report", {
      region: "32.73.09.1001",
      field: "postal_code",
      value: "40198",
      url: "",
      regulation: "",
      text: "Cap kantor pos.",
    });
    expect(filed.status).toBe(303);
    const admin = await makeAdmin();
    const queue = (await json(await call("/admin/reports?status=open&region_id=32.73.09.1001", { token: admin.token }))).data as {
      id: string;
      value: string;
    }[];
    const report = queue.find((r) => r.value === "40198")!;
    // makeAdmin's own sign-up restores console.log: spy on it again for the decision's mail
    const decisionLog = vi.spyOn(console, "log");
    decisionLog.mockClear();
    expect(
      (
        await call(`/admin/reports/${report.id}`, {
          method: "PATCH",
          token: admin.token,
          json: { status: "rejected", answer: "Kodepos ini milik kelurahan lain." },
        })
      ).status,
    ).toBe(200);
    const [decision] = await printed(
      decisionLog,
      new RegExp(`to ${email.replace(/[.]/g, "\\.")}: Laporan Anda tentang 32\\.73\\.09\\.1001 ditolak[\\s\\S]*?halaman Laporan di portal\\.`),
    );
    expect(decision).toContain("tidak diterima");
    expect(decision).toContain("Jawaban peninjau:");
    expect(decision).not.toMatch(/\b(Your|was|The reviewer)\b/);
  });
});
