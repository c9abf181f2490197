/**
 * Receipts (issue 54) through HTTP: a top-up settled through Tripay's signed callback has its
 * kwitansi (JSON and an A4 page): seller and buyer, the company and NPWP from the billing details,
 * the Tripay reference, the amount in rupiah and in Indonesian words; numbered once however often
 * the callback comes; a subscription's names its plan and period; nobody else's is readable.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call, expectError, json, verifiedDeveloper } from "../helpers";
import { deliver, paid, topupInvoice, tripayAnswers, withTripay } from "./tripay-helpers";

withTripay();

const receiptOf = async (token: string, id: string, accept = "application/json") => call(`/billing/receipts/${id}`, { token, headers: { accept } });

describe("receipts", () => {
  it("a top-up settled through the Tripay callback has a receipt: seller, buyer with company and NPWP, reference, amount in words; as JSON and as a page", async () => {
    const dev = await verifiedDeveloper();
    const details = await call("/billing/details", {
      method: "PUT",
      token: dev.token,
      json: { company_name: "PT Contoh Maju Bersama", npwp: "01.234.567.8-901.000", address: "Jl. Asia Afrika No. 8, Braga, Bandung 40111" },
    });
    expect(details.status).toBe(200);
    expect((await json(details)).data).toMatchObject({
      company_name: "PT Contoh Maju Bersama",
      npwp: "012345678901000",
      address: "Jl. Asia Afrika No. 8, Braga, Bandung 40111",
    });

    const inv = await topupInvoice(dev.token, 150_000);
    await expectError(await receiptOf(dev.token, inv.id), 404, "NOT_FOUND"); // not paid yet
    expect((await deliver(paid(inv))).status).toBe(200);
    expect((await deliver(paid(inv))).status).toBe(200); // Tripay delivers again: still one receipt

    const list = (await json(await call("/billing/receipts", { token: dev.token }))).data;
    expect(list).toHaveLength(1);
    const res = await receiptOf(dev.token, inv.id);
    expect(res.status).toBe(200);
    const r = (await json(res)).data;
    expect(r).toEqual({
      id: inv.id,
      number: expect.stringMatching(/^KW-20\d\d-\d{6}$/),
      issued_at: expect.any(String),
      status: "paid",
      kind: "topup",
      seller: { name: "Wilayah API", address: null, npwp: null },
      buyer: {
        name: "Dev",
        email: dev.data.email,
        company_name: "PT Contoh Maju Bersama",
        npwp: "012345678901000",
        address: "Jl. Asia Afrika No. 8, Braga, Bandung 40111",
      },
      payment: { provider: "Tripay", method: "QRIS", reference: inv.reference },
      items: [
        {
          description: "Kredit Wilayah API: 75.000 kredit",
          description_en: "Wilayah API credits: 75,000 credits",
          quantity: 1,
          unit_price: 150_000,
          amount: 150_000,
        },
      ],
      total: 150_000,
      currency: "IDR",
      total_in_words: "Seratus lima puluh ribu rupiah",
      html_url: `https://api.wilayah.test/portal/billing/receipts/${inv.id}`,
    });
    expect(list[0]).toEqual(r);

    const page = await receiptOf(dev.token, inv.id, "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();
    for (const text of [
      "KWITANSI",
      r.number,
      "PT Contoh Maju Bersama",
      "NPWP 01.234.567.8-901.000",
      "Jl. Asia Afrika No. 8, Braga, Bandung 40111",
      "Rp150.000",
      "Seratus lima puluh ribu rupiah",
      inv.reference,
      "LUNAS / PAID",
    ])
      expect(html).toContain(text);

    // the billing details change later: the receipt keeps what was true when it was paid
    await call("/billing/details", { method: "PUT", token: dev.token, json: { company_name: "PT Lain", npwp: null } });
    expect((await json(await receiptOf(dev.token, inv.id))).data.buyer).toMatchObject({ company_name: "PT Contoh Maju Bersama", npwp: "012345678901000" });
    expect((await json(await call("/billing/details", { token: dev.token }))).data).toMatchObject({ company_name: "PT Lain", npwp: null });
  });

  it("receipts are numbered in the order paid; a plan's names the plan and its period; without details, the account's name", async () => {
    const dev = await verifiedDeveloper();
    const first = await topupInvoice(dev.token, 20_000);
    await deliver(paid(first));
    tripayAnswers();
    const sub = (await json(await call("/billing/subscribe", { method: "POST", token: dev.token, json: { plan_id: "starter" } }))).data;
    expect((await deliver(paid(sub))).status).toBe(200);
    const [newer, older] = (await json(await call("/billing/receipts", { token: dev.token }))).data;
    expect(older.id).toBe(first.id);
    expect(Number(newer.number.slice(-6))).toBeGreaterThan(Number(older.number.slice(-6)));
    expect(older).toMatchObject({ total_in_words: "Dua puluh ribu rupiah", buyer: { name: "Dev", company_name: null, npwp: null } });
    expect(newer).toMatchObject({ kind: "subscription", total: 49_000, total_in_words: "Empat puluh sembilan ribu rupiah" });
    expect(newer.items[0].description).toMatch(/^Langganan Wilayah API paket Starter, 1 bulan \(\d+ \S+ 20\d\d – \d+ \S+ 20\d\d\)$/);
  });

  it("a payment settled before receipts existed gets its receipt when asked; an unknown, unpaid or another user's invoice is 404", async () => {
    const dev = await verifiedDeveloper();
    const inv = await topupInvoice(dev.token, 10_000);
    await deliver(paid(inv));
    await env.DB.prepare("DELETE FROM receipts WHERE invoice_id = ?").bind(inv.id).run();
    expect((await json(await receiptOf(dev.token, inv.id))).data).toMatchObject({ id: inv.id, total_in_words: "Sepuluh ribu rupiah" });

    const other = await verifiedDeveloper();
    await expectError(await receiptOf(other.token, inv.id), 404, "NOT_FOUND");
    await expectError(await receiptOf(dev.token, "inv_nope"), 404, "NOT_FOUND");
    await expectError(await call(`/billing/receipts/${inv.id}`), 401, "MISSING_TOKEN");
  });

  it("billing details are checked: an NPWP of 15 or 16 digits, no control characters", async () => {
    const dev = await verifiedDeveloper();
    for (const body of [{ npwp: "123" }, { npwp: "01.234.567.8-901.00X" }, { company_name: "PT A\u202Eevil" }, { address: "a\nb" }, { other: 1 }]) {
      await expectError(await call("/billing/details", { method: "PUT", token: dev.token, json: body }), 400, "VALIDATION_ERROR");
    }
    const ok = await call("/billing/details", { method: "PUT", token: dev.token, json: { npwp: "3273 0912 3456 0001", company_name: "" } });
    expect((await json(ok)).data).toMatchObject({ npwp: "3273091234560001", company_name: null });
  });
});
