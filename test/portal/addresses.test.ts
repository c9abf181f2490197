/**
 * The portal's address page (issue 24) through HTTP: paste or upload, the parsed table with
 * confidence, the CSV download, the signed-in user's quota (each address one call, a batch refused
 * whole), both languages.
 */
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { call, json, login, setPlan, waitForTotal } from "../helpers";
import { Browser, signedUp } from "./browser";

afterEach(() => vi.restoreAllMocks());

/** A signed-up developer whose email is verified (the emailed link opened), with an API session token for the usage reads. */
async function verified() {
  const { b, email, link } = await signedUp();
  await b.get(link.pathname + link.search);
  const token = (await json(await login(email, "correct horse"))).token as string;
  const me = await json(await call("/auth/me", { token }));
  return { b, token, userId: me.data.id as string };
}

const rows = (html: string) => html.match(/data-testid="address-row"/g)?.length ?? 0;

describe("portal: addresses", () => {
  it("signed out: the login page; signed in, unverified: the page says to verify first and refuses", async () => {
    expect((await new Browser().get("/portal/addresses")).headers.get("location")).toBe("/portal/login");
    const { b } = await signedUp();
    const page = await b.get("/portal/addresses");
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-testid="verify-first"');
    const refused = await b.postMultipart("/portal/addresses", { addresses: "Braga, Kota Bandung" });
    expect(refused.status).toBe(403);
  });

  it("pasted addresses: the parsed table with confidence and notes, each address one call of the user's quota, the CSV to download", async () => {
    const { b, token } = await verified();
    const page = await b.get("/portal/addresses", { "accept-language": "en" });
    const html = await page.text();
    expect(html).toContain('href="/portal/addresses"');
    expect(html).toContain('enctype="multipart/form-data"');
    const res = await b.postMultipart("/portal/addresses", {
      addresses: "Jl. Asia Afrika No. 8, Braga, Sumur Bandung, Kota Bandung 40111\n\n  Sukamaju  \r\nkel cihapit kec bandung wetan bdg\n",
    });
    expect(res.status).toBe(200);
    const out = await res.text();
    expect(rows(out)).toBe(3);
    expect(out).toContain("32.73.19.1001");
    expect(out).toContain("Cihapit");
    expect(out).toMatch(/badge ok">100%/);
    expect(out).toMatch(/badge err">\d+%/); // Sukamaju alone: many villages bear it
    const usage = await waitForTotal(token, 3);
    expect(usage.by_key).toEqual([{ key_id: "portal", name: null, prefix: null, count: 3 }]);
    expect(usage.by_endpoint).toEqual([{ endpoint: "/wilayah/address", count: 3 }]);
    expect(await (await b.get("/portal/usage")).text()).toContain("Portal");

    const csv = /<textarea name="csv" hidden="">([\s\S]*?)<\/textarea>/.exec(out)?.[1];
    expect(csv).toBeTruthy();
    const download = await b.post("/portal/addresses/csv", { csv: csv!.replaceAll("&quot;", '"').replaceAll("&amp;", "&") });
    expect(download.status).toBe(200);
    expect(download.headers.get("content-type")).toContain("text/csv");
    expect(download.headers.get("content-disposition")).toContain("attachment");
    const lines = (await download.text()).trim().split("\r\n");
    expect(lines[0]).toMatch(/^\uFEFF?input,kelurahan_id,kelurahan,kecamatan_id/);
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain('"Jl. Asia Afrika No. 8, Braga, Sumur Bandung, Kota Bandung 40111",32.73.19.1001,Braga');
  });

  it("an uploaded CSV of one column (header skipped, quoted addresses with commas); Indonesian copy", async () => {
    const { b } = await verified();
    await b.get("/portal/lang/id?next=/portal/addresses");
    const res = await b.postMultipart(
      "/portal/addresses",
      { addresses: "" },
      {
        file: {
          name: "alamat.csv",
          type: "text/csv",
          content: 'alamat\r\n"Cihapit, Bandung Wetan, Kota Bandung"\r\n"DSN KRAJAN RT 002 RW 001 DESA SUKOREJO KEC. BANGSALSARI KAB. JEMBER"\r\n',
        },
      },
    );
    expect(res.status).toBe(200);
    const out = await res.text();
    expect(rows(out)).toBe(2);
    expect(out).toContain("32.73.09.1001");
    expect(out).toContain("35.09.09.2006");
    expect(out).toContain("Unduh sebagai CSV");
    expect(out).toContain("Keyakinan");
  });

  it("refuses nothing, more than 100 addresses and one over 500 characters, counting nothing", async () => {
    const { b, token } = await verified();
    await b.get("/portal/addresses");
    const none = await b.postMultipart("/portal/addresses", { addresses: " \n \n" });
    expect(none.status).toBe(400);
    const many = await b.postMultipart("/portal/addresses", { addresses: Array.from({ length: 101 }, (_, i) => `Braga ${i}`).join("\n") });
    expect(many.status).toBe(400);
    expect(await many.text()).toMatch(/101/);
    const long = await b.postMultipart("/portal/addresses", { addresses: `Braga ${"x".repeat(500)}` });
    expect(long.status).toBe(400);
    expect((await json(await call("/user/usage", { token }))).data.total).toBe(0);
  });

  it("a batch the quota and credits cannot cover is refused whole (402), in words", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES ('portal3', 'Portal test', 0, 3, 30, '[]', 55, 0)",
    ).run();
    const { b, token, userId } = await verified();
    await setPlan(userId, "portal3");
    await b.get("/portal/lang/en?next=/portal/addresses");
    const refused = await b.postMultipart("/portal/addresses", { addresses: "Braga\nCihapit\nDago\nSekeloa" });
    expect(refused.status).toBe(402);
    expect(await refused.text()).toContain("nothing was counted");
    expect((await b.postMultipart("/portal/addresses", { addresses: "Braga\nCihapit\nDago" })).status).toBe(200);
    expect((await waitForTotal(token, 3)).total).toBe(3);
  });
});
