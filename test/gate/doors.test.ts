/**
 * Issue 50's doors, each tried through HTTP as the attacker did (every one answered otherwise on
 * 928258b, before the gate): 1. the whole map for free; 2. a chunk that kills the job worker; 3.
 * uploads before any limit; 4. webhook retries that stack; 5. webhook targets; 6. mail to anyone;
 * 7. invisible characters in official names; 8. the small ones (the style's Host, spreadsheet
 * formulas, wildcard origins on public suffixes).
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { app } from "../../src/app";
import { INPUT_LIMITS } from "../../src/jobs/input";
import { CURRENT_TILES } from "../../src/tiles/service";
import { BASE, call, createKey, expectError, json, makeAdmin, printed, seedUserWithKey, setPlan, verifiedDeveloper } from "../helpers";
import { signedUp } from "../portal/browser";
import { uploadTilesSubset } from "../tiles-subset";
import { createHook, receiver, waitFor } from "../webhooks/helpers";
import { countedBody, mapTile, mapTokenFor, spendQuota, spendRate } from "./helpers";

/** Kota Bandung's tile at a zoom (as tiles.test.ts). */
function tileAt(z: number) {
  const n = 2 ** z;
  const lat = (-6.9175 * Math.PI) / 180;
  const x = Math.floor(((107.6191 + 180) / 360) * n);
  const y = Math.floor(((1 - Math.log(Math.tan(lat) + 1 / Math.cos(lat)) / Math.PI) / 2) * n);
  return `/tiles/${z}/${x}/${y}.mvt`;
}

const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;

beforeAll(async () => {
  await uploadTilesSubset();
});

describe("1. the whole map for free", () => {
  it("a keyless tile with `Sec-Fetch-Site: same-origin` (any client can send it) is 401, not a tile", async () => {
    await expectError(await call("/tiles/12/3253/2118.mvt", { headers: { "sec-fetch-site": "same-origin" } }), 401, "MISSING_API_KEY");
    await expectError(await call(tileAt(9), { headers: { "sec-fetch-site": "same-origin", referer: `${BASE}/map` } }), 401, "MISSING_API_KEY");
  });

  it("the site's map gets tiles with its page's token: up to zoom 9 (no village boundary), for its own network and origin only", async () => {
    const ip = "203.0.113.70";
    const token = await mapTokenFor(ip);
    expect((await mapTile(tileAt(8), token, ip)).status).toBe(200);
    expect((await mapTile(tileAt(9), token, ip)).status).toBe(200);
    // the villages' zooms (what the export mostly sells) need a key
    for (const z of [10, 11, 12]) await expectError(await mapTile(tileAt(z), token, ip), 403, "FORBIDDEN");
    // another network, another origin, no origin, a forged or altered token: refused
    await expectError(await mapTile(tileAt(8), token, "203.0.113.71"), 401, "INVALID_API_KEY");
    await expectError(await mapTile(tileAt(8), token, ip, { referer: "https://evil.example/map" }), 401, "INVALID_API_KEY");
    await expectError(await call(tileAt(8), { ip, headers: { "x-map-token": token } }), 401, "INVALID_API_KEY");
    await expectError(await mapTile(tileAt(8), `${token.slice(0, -2)}00`, ip), 401, "INVALID_API_KEY");
    await expectError(await mapTile(tileAt(8), "mt1.9999999999.AAAAAAAAAAAAAAAA.00", ip), 401, "INVALID_API_KEY");
    // an IPv6 visitor's token holds across its /64 (rotating addresses inside it is the same client)
    const v6 = await mapTokenFor("2001:db8:aa:bb::1");
    expect((await mapTile(tileAt(8), v6, "2001:db8:aa:bb:ffff::9")).status).toBe(200);
    await expectError(await mapTile(tileAt(8), v6, "2001:db8:aa:bc::1"), 401, "INVALID_API_KEY");
  });

  it("the site's map is limited per client network (an IPv6 /64 is one client): 600 tiles a minute, then 429", async () => {
    const token = await mapTokenFor("2001:db8:77:1::1");
    const answers = await Promise.all(Array.from({ length: 600 }, (_, i) => mapTile("/tiles/3/0/0.mvt", token, `2001:db8:77:1::${(i % 200) + 1}`)));
    // the page's own token mint counted one: at least 599 of these were served
    expect(answers.filter((r) => r.status === 204).length).toBeGreaterThanOrEqual(599);
    const over = await mapTile("/tiles/3/0/0.mvt", token, "2001:db8:77:1::abcd");
    await expectError(over, 429, "RATE_LIMITED");
    expect(over.headers.get("retry-after")).toBe("60");
  });

  it("a key whose quota is spent gets 402 on every tile, also in parallel bursts", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "free");
    const { key } = await createKey(dev.token);
    await spendQuota(dev.data.id);
    const c = tileAt(12).split("/");
    const [z, x, y] = [12, Number(c[3]), Number.parseInt(c[4], 10)];
    for (let burst = 0; burst < 3; burst++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => call(`/tiles/${z}/${x - 2 + (i % 5)}/${y - 1 + Math.floor(i / 5) + burst}.mvt`, { key })),
      );
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(402));
    }
  });
});

describe("2. a chunk that kills the job worker", () => {
  it("900 rows near the record limit (58.5 MB) are cut into chunks of at most 2 MiB and one record, not one chunk of 58.5 MB", async () => {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "free");
    const { key } = await createKey(dev.token);
    const filler = "x".repeat(65_000 - 20);
    const lines = ["code,note", ...Array.from({ length: 900 }, () => `32.73,${filler}`)];
    const res = await call("/api/v1/jobs?kind=convert", { method: "POST", key, headers: { "content-type": "text/csv" }, body: `${lines.join("\n")}\n` });
    expect(res.status).toBe(202);
    const job = (await json(res)).data;
    expect(job.rows.total).toBe(900);
    expect(job.chunks.total).toBeGreaterThanOrEqual(28);
    const ranges = JSON.parse(await (await env.JOBS.get(`jobs/${job.id}/chunks`))!.text()) as { length: number; rows: number }[];
    expect(Math.max(...ranges.map((r) => r.length))).toBeLessThanOrEqual(INPUT_LIMITS.chunkBytes + INPUT_LIMITS.maxRecordBytes);
    expect(ranges.reduce((n, r) => n + r.rows, 0)).toBe(900);
    expect((await call(`/api/v1/jobs/${job.id}`, { method: "DELETE", key })).status).toBe(200);
  });
});

describe("3. uploads before any limit", () => {
  async function freeKey() {
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "free");
    return { dev, key: (await createKey(dev.token)).key };
  }
  const jobsOf = async (userId: string) => (await env.DB.prepare("SELECT count(*) AS n FROM jobs WHERE user_id = ?").bind(userId).first<{ n: number }>())?.n;
  const sendUpload = (key: string, body: ReadableStream, type = "text/csv") =>
    call("/api/v1/jobs?kind=convert", { method: "POST", key, headers: { "content-type": type }, body });

  it("past the plan's rate an upload is 429 before its file is read; nothing is stored", async () => {
    const { dev, key } = await freeKey();
    await spendRate(env.RL_FREE, `account:${dev.data.id}`, 30);
    const up = countedBody(4 * 1024 * 1024);
    const res = await sendUpload(key, up.body);
    await expectError(res, 429, "RATE_LIMITED");
    expect(up.seen.pulled).toBeLessThan(1024 * 1024); // at most what the runtime buffers on the way: never the file
    expect(await jobsOf(dev.data.id)).toBe(0);
  });

  it("an account that can pay for nothing is 402 before its file is read", async () => {
    const { dev, key } = await freeKey();
    await spendQuota(dev.data.id);
    const up = countedBody(4 * 1024 * 1024);
    await expectError(await sendUpload(key, up.body), 402, "QUOTA_EXCEEDED");
    expect(up.seen.pulled).toBeLessThan(1024 * 1024);
    expect(await jobsOf(dev.data.id)).toBe(0);
  });

  it("uploads beyond a 30 a minute plan are 429 (61 in a row cross 30 in one fixed minute, wherever the minute ends)", async () => {
    const { key } = await freeKey();
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++)
      statuses.push(
        (await call("/api/v1/jobs?kind=convert", { method: "POST", key, headers: { "content-type": "text/csv" }, body: 'code\n32\n"broken' })).status,
      );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(statuses.filter((s) => s !== 429).every((s) => s === 400)).toBe(true);
  });

  it("a form of 1,200 fields of 60 KB before its file is refused after its first KiBs, not read whole", async () => {
    const { dev, key } = await freeKey();
    const boundary = "x-boundary";
    const enc = new TextEncoder();
    const field = (i: number) => enc.encode(`--${boundary}\r\nContent-Disposition: form-data; name="f${i}"\r\n\r\n${"v".repeat(60_000)}\r\n`);
    let i = 0;
    let pulled = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i >= 1_200) {
          controller.enqueue(enc.encode(`--${boundary}--\r\n`));
          controller.close();
          return;
        }
        const part = field(i++);
        pulled += part.length;
        controller.enqueue(part);
      },
    });
    const res = await sendUpload(key, body, `multipart/form-data; boundary=${boundary}`);
    expect([400, 413]).toContain(res.status);
    expect(pulled).toBeLessThan(2 * 1024 * 1024); // of 72 MB
    expect(await jobsOf(dev.data.id)).toBe(0);
    // and a form with more than 16 small fields before the file is refused too
    const many = Array.from({ length: 20 }, (_, n) => `--${boundary}\r\nContent-Disposition: form-data; name="f${n}"\r\n\r\nx\r\n`).join("");
    await expectError(
      await sendUpload(key, new Response(`${many}--${boundary}--\r\n`).body!, `multipart/form-data; boundary=${boundary}`),
      400,
      "VALIDATION_ERROR",
    );
  });
});

describe("4. webhook retries that stack", () => {
  it("redelivering a delivery still pending is 409 DELIVERY_PENDING and starts no second chain", async () => {
    const r = receiver("stack.receiver.test", () => new Response("down", { status: 500 }));
    try {
      const dev = await verifiedDeveloper();
      const hook = await createHook(dev.token, { url: "https://stack.receiver.test/hook" });
      const queued = (await json(await call(`/user/webhooks/${hook.id}/test`, { method: "POST", token: dev.token }))).data;
      await waitFor(() => r.received.length >= 1 || undefined);
      for (let i = 0; i < 3; i++)
        await expectError(
          await call(`/user/webhooks/${hook.id}/deliveries/${queued.id}/redeliver`, { method: "POST", token: dev.token }),
          409,
          "DELIVERY_PENDING",
        );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(r.received).toHaveLength(1); // the failed attempt waits for its retry: no chain was added
    } finally {
      r.restore();
    }
  });
});

describe("5. webhook targets", () => {
  it("production refuses IPv6 forms that embed private addresses, site-local and documentation ranges, and ports beyond the usual web ports", async () => {
    const dev = await verifiedDeveloper();
    const create = (url: string) =>
      app.fetch(
        new Request(`${BASE}/user/webhooks`, {
          method: "POST",
          headers: { authorization: `Bearer ${dev.token}`, "content-type": "application/json", "cf-connecting-ip": "198.51.100.8" },
          body: JSON.stringify({ url, events: ["edition.published"] }),
        }),
        { ...env, ENVIRONMENT: "production" },
        ctx,
      );
    for (const url of [
      "https://[::ffff:0:7f00:1]/hook", // IPv4-translated 127.0.0.1
      "https://[::ffff:a9fe:a9fe]/hook", // mapped 169.254.169.254
      "https://[::7f00:1]/hook", // compatible 127.0.0.1
      "https://[2002:7f00:1::]/hook", // 6to4 of 127.0.0.1
      "https://[2002:a9fe:a9fe::]/hook", // 6to4 of the metadata address
      "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook", // Teredo, client 192.0.2.45
      "https://[64:ff9b::a00:1]/hook", // NAT64 of 10.0.0.1
      "https://[64:ff9b:1::1]/hook", // local-use NAT64
      "https://[fec0::1]/hook", // site-local
      "https://[2001:db8::1]/hook", // documentation
      "https://[3fff::1]/hook", // documentation (RFC 9637)
      "https://192.0.2.10/hook", // TEST-NET-1
      "https://198.51.100.10/hook", // TEST-NET-2
      "https://203.0.113.10/hook", // TEST-NET-3
      "https://hooks.example.com:22/x",
      "https://hooks.example.com:6379/x",
      "https://hooks.example.com:80/x",
    ]) {
      const e = await expectError(await create(url), 400, "VALIDATION_ERROR");
      expect(e.details?.[0]?.path, url).toBe("url");
    }
    expect((await create("https://hooks.example.com:8443/x")).status).toBe(201);
    expect((await create("https://[2606:4700::1111]/x")).status).toBe(201);
  });
});

describe("6. mail to anyone", () => {
  it("a report's email must be the account's own; the decision is mailed to its verified address only", async () => {
    const dev = await verifiedDeveloper();
    const { key } = await createKey(dev.token);
    const admin = await makeAdmin();
    const body = { field: "name", value: "Sumberanyar Baru", evidence: { text: "the village office sign" } };
    const stranger = await call("/api/v1/wilayah/35.13.15.2017/reports", { method: "POST", key, json: { ...body, email: "victim@example.org" } });
    expect((await expectError(stranger, 400, "VALIDATION_ERROR")).details?.[0]?.path).toBe("email");
    const own = await call("/api/v1/wilayah/35.13.15.2017/reports", { method: "POST", key, json: { ...body, email: dev.data.email.toUpperCase() } });
    expect(own.status).toBe(201);
    const log = vi.spyOn(console, "log");
    try {
      const id = (await json(own)).data.id;
      expect((await call(`/admin/reports/${id}`, { method: "PATCH", token: admin.token, json: { status: "rejected", answer: "Not so." } })).status).toBe(200);
      const mails = await printed(log, /\[console mailer\] to \S+: Your report on 35\.13\.15\.2017/);
      expect(mails).toEqual([`[console mailer] to ${dev.data.email}: Your report on 35.13.15.2017`]);
    } finally {
      log.mockRestore();
    }
  });
});

describe("7. invisible characters in official names", () => {
  it("a report's value with zero-width or bidirectional characters is 400, naming the character; values are stored in NFC", async () => {
    const dev = await verifiedDeveloper();
    const { key } = await createKey(dev.token);
    const file = (value: string) =>
      call("/api/v1/wilayah/32.73.09.1001/reports", { method: "POST", key, json: { field: "name", value, evidence: { text: "sign" } } });
    for (const [value, cp] of [
      ["Cihapit\u200b\u2060", "U+200B"],
      ["Cihapit\u2060", "U+2060"],
      ["Ciha\u00adpit", "U+00AD"],
      ["\u202eCihapit", "U+202E"],
    ]) {
      const e = await expectError(await file(value), 400, "VALIDATION_ERROR");
      expect(e.details?.[0]).toMatchObject({ path: "value", message: expect.stringContaining(cp) });
    }
    const res = await file("Cafe\u0301 Cihapit");
    expect(res.status).toBe(201);
    expect((await json(res)).data.value).toBe("Caf\u00e9 Cihapit");
  });
});

describe("8. the small ones", () => {
  it("style.json and tiles.json: URLs of the configured public origin whatever the Host; without one, private and Vary: Host", async () => {
    const res = await call("/tiles/style.json");
    expect(res.headers.get("cache-control")).toBe("private, max-age=300");
    expect(res.headers.get("vary")?.toLowerCase()).toContain("host");
    const configured = { ...env, PUBLIC_API_URL: "https://api.wilayah.example" };
    for (const path of ["/tiles/style.json", "/tiles/tiles.json"]) {
      const forged = await app.fetch(new Request(`https://attacker.example${path}`, { headers: { host: "attacker.example" } }), configured, ctx);
      const text = await forged.text();
      expect(text).toContain(`https://api.wilayah.example/tiles/{z}/{x}/{y}.mvt?v=${CURRENT_TILES}`);
      expect(text).not.toContain("attacker.example");
      expect(forged.headers.get("cache-control")).toBe("public, max-age=300");
    }
  });

  it("CSV answers neutralise formulas after leading spaces and in fullwidth forms", async () => {
    const { b, link } = await signedUp();
    await b.get(link.pathname + link.search);
    const res = await b.postMultipart("/portal/addresses", { addresses: ' =HYPERLINK("https://evil.example")\n\uff1d1+1\n\u3000@SUM(A1)\n-2+3\nBraga' });
    expect(res.status).toBe(200);
    const csv =
      /<textarea name="csv" hidden="">([\s\S]*?)<\/textarea>/
        .exec(await res.text())?.[1]
        ?.replaceAll("&quot;", '"')
        .replaceAll("&#39;", "'")
        .replaceAll("&amp;", "&") ?? "";
    const inputs = csv
      .trim()
      .split("\r\n")
      .slice(1)
      .map((l) => l.replace(/^"/, "").split(/[",]/)[0]);
    expect(inputs.filter((v) => v !== "Braga")).toHaveLength(4);
    for (const v of inputs) if (v !== "Braga") expect(v.startsWith("'"), v).toBe(true);

    // A bulk job's result keeps its input's cells as they were (not trimmed): a space before `=` is neutralised too.
    const { secret } = await seedUserWithKey();
    const up = await call("/api/v1/jobs?kind=convert", {
      method: "POST",
      key: secret,
      headers: { "content-type": "text/csv" },
      body: "code,note\n32, =1+1\n33,\uff1d2+2\n35,\u00a0@SUM(A1)\n",
    });
    expect(up.status).toBe(202);
    const id = (await json(up)).data.id;
    await waitFor(async () => ["done", "failed"].includes((await json(await call(`/api/v1/jobs/${id}`, { key: secret }))).data.state) || undefined, 60_000);
    const rows = (await (await call(`/api/v1/jobs/${id}/result`, { key: secret })).text()).trim().split("\r\n").slice(1);
    expect(rows.map((r) => r.split(",")[2])).toEqual(["' =1+1", "'\uff1d2+2", "'\u00a0@SUM(A1)"]);
  }, 90_000);

  it("a publishable key's wildcard origin may not cover a public suffix (the Public Suffix List decides)", async () => {
    const dev = await verifiedDeveloper();
    for (const origin of ["https://*.github.io", "https://*.co.uk", "https://*.pages.dev", "https://*.co.id"]) {
      const res = await call("/user/keys", { method: "POST", token: dev.token, json: { name: "web", kind: "publishable", allowed_origins: [origin] } });
      const e = await expectError(res, 400, "VALIDATION_ERROR");
      expect(e.message, origin).toContain("public suffix");
    }
    const ok = await call("/user/keys", {
      method: "POST",
      token: dev.token,
      json: { name: "web", kind: "publishable", allowed_origins: ["https://*.me.github.io"] },
    });
    expect(ok.status).toBe(201);
  });
});
