import { describe, expect, it } from "vitest";
import { DATA_VERSION } from "../../src/wilayah/version";
import { call } from "../helpers";

describe("GET /wilayah/changes.atom", () => {
  it("a public Atom feed: one entry per edition, newest first, with counts and a link to the changes; cached, with x-data-version", async () => {
    const res = await call("/wilayah/changes.atom");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/atom+xml; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(res.headers.get("x-data-version")).toBe(DATA_VERSION);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>\s*<feed xmlns="http:\/\/www.w3.org\/2005\/Atom">/);
    const entries = [...xml.matchAll(/<entry>([\s\S]*?)<\/entry>/g)].map((m) => m[1]);
    const ids = entries.map((e) => /<id>urn:wilayah-api:edition:([^<]+)<\/id>/.exec(e)?.[1]);
    expect(ids).toEqual(["2025", "2022b", "2022", "2020", "2017", "2015"]);
    expect(entries[0]).toContain("(current)");
    expect(entries[0]).toContain('href="https://api.wilayah.test/api/v1/wilayah/changes?from=2022b&amp;to=2025"');
    expect(entries[0]).toMatch(/[\d,]+ changes since edition 2022b/);
    expect(entries[0]).toMatch(/recoded/);
    expect(entries[5]).toContain("The first edition");
  });

  it("needs no API key and is not a data call (an invalid key is not even read)", async () => {
    expect((await call("/wilayah/changes.atom", { key: "wk_live_nope" })).status).toBe(200);
  });
});
