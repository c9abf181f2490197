import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createKey, json, mcpTool, verifiedDeveloper } from "../helpers";

/**
 * A seed that carries two corrections, as scripts/seed/corrections.ts writes them (its node test
 * checks the build writes exactly these statements): a village's postal code and a kecamatan's
 * name. Loaded over the test seed with a new checksum (the data version every cache key and the
 * history memo are keyed on), and undone afterwards.
 */
const VILLAGE = "11.01.01.2001";
const KECAMATAN = "11.01.02";
let before: { postal: string; name: string; checksum: string };
let key: string;

beforeAll(async () => {
  const dev = await verifiedDeveloper();
  key = (await createKey(dev.token)).key;
  const v = await env.DB.prepare("SELECT postal_code FROM kelurahan WHERE id = ?").bind(VILLAGE).first<{ postal_code: string }>();
  const k = await env.DB.prepare("SELECT name FROM kecamatan WHERE id = ?").bind(KECAMATAN).first<{ name: string }>();
  const d = await env.DB.prepare("SELECT checksum FROM dataset WHERE id = 'wilayah'").first<{ checksum: string }>();
  before = { postal: v?.postal_code ?? "", name: k?.name ?? "", checksum: d?.checksum ?? "" };
  await env.DB.batch([
    env.DB.prepare("UPDATE kelurahan SET postal_code = '23999' WHERE id = ?").bind(VILLAGE),
    env.DB.prepare("UPDATE kecamatan SET name = 'Trumon Tengah Baru' WHERE id = ?").bind(KECAMATAN),
    env.DB.prepare(
      "INSERT OR REPLACE INTO wilayah_corrections (report_id, region_id, level, field, value_before, value, basis, accepted_at) VALUES (?, ?, 4, 'postal_code', ?, '23999', 'Pos Indonesia, kodepos 2026', '2026-11-28T01:00:00.000Z')",
    ).bind("rpt_testPostal0000001", VILLAGE, before.postal),
    env.DB.prepare(
      "INSERT OR REPLACE INTO wilayah_corrections (report_id, region_id, level, field, value_before, value, basis, accepted_at) VALUES (?, ?, 3, 'name', ?, 'Trumon Tengah Baru', 'Perbup Aceh Selatan 12/2026', '2026-11-28T02:00:00.000Z')",
    ).bind("rpt_testName000000001", KECAMATAN, before.name),
    env.DB.prepare("UPDATE dataset SET checksum = 'corrections-test' WHERE id = 'wilayah'"),
  ]);
});

afterAll(async () => {
  await env.DB.batch([
    env.DB.prepare("UPDATE kelurahan SET postal_code = ? WHERE id = ?").bind(before.postal, VILLAGE),
    env.DB.prepare("UPDATE kecamatan SET name = ? WHERE id = ?").bind(before.name, KECAMATAN),
    env.DB.prepare("DELETE FROM wilayah_corrections WHERE report_id IN ('rpt_testPostal0000001', 'rpt_testName000000001')"),
    env.DB.prepare("UPDATE dataset SET checksum = ? WHERE id = 'wilayah'").bind(before.checksum),
  ]);
});

const get = async (path: string) => {
  const res = await call(`/api/v1/wilayah${path}`, { key });
  expect(res.status, path).toBe(200);
  return json(res);
};

describe("corrections the seed carries", () => {
  it("the record shows the corrected values", async () => {
    expect((await get(`/${VILLAGE}`)).data.postal_code).toBe("23999");
    expect((await get(`/kecamatan/${KECAMATAN}`)).data.name).toBe("Trumon Tengah Baru");
  });

  it("/wilayah/changes lists each as a correction (kind correction, change corrected) after the edition changes, with its basis", async () => {
    const only = await get("/changes?kind=correction");
    expect(only.meta.total).toBe(2);
    expect(only.data).toEqual([
      {
        kind: "correction",
        edition: "2025",
        regulation: expect.any(String),
        change: "corrected",
        level: "kelurahan",
        code_before: VILLAGE,
        name_before: expect.any(String),
        code_after: VILLAGE,
        name_after: expect.any(String),
        basis: null,
        confidence: null,
        correction: {
          report_id: "rpt_testPostal0000001",
          field: "postal_code",
          value_before: before.postal,
          value: "23999",
          basis: "Pos Indonesia, kodepos 2026",
          accepted_at: "2026-11-28T01:00:00.000Z",
        },
      },
      expect.objectContaining({
        kind: "correction",
        level: "kecamatan",
        name_before: before.name,
        name_after: "Trumon Tengah Baru",
        correction: expect.objectContaining({ field: "name", basis: "Perbup Aceh Selatan 12/2026" }),
      }),
    ]);
    // the default list: edition changes first, then the corrections on its last page
    const all = await get("/changes?per_page=100");
    const edition = await get("/changes?kind=edition&per_page=1");
    expect(all.meta.total).toBe(edition.meta.total + 2);
    const last = await get(`/changes?per_page=100&page=${all.meta.total_pages}`);
    expect(last.data.slice(-2).map((c: { kind: string; code_after: string }) => [c.kind, c.code_after])).toEqual([
      ["correction", VILLAGE],
      ["correction", KECAMATAN],
    ]);
    expect(all.data.every((c: { kind: string }) => c.kind === "edition")).toBe(all.meta.total > 100);
    // filters: by level, by change; an earlier range has none
    expect((await get("/changes?level=kecamatan&kind=correction")).data.map((c: { code_after: string }) => c.code_after)).toEqual([KECAMATAN]);
    expect((await get("/changes?change=corrected")).meta.total).toBe(2);
    expect((await get("/changes?from=2017&to=2020&kind=correction")).meta.total).toBe(0);
  });

  it("the code's history names its correction; MCP answers the same", async () => {
    const h = (await get(`/${KECAMATAN}/history`)).data;
    expect(h.name).toBe("Trumon Tengah Baru");
    expect(h.changes.at(-1)).toMatchObject({ kind: "correction", correction: { report_id: "rpt_testName000000001" } });
    const tool = await mcpTool(key, "wilayah_changes", { kind: "correction" });
    expect(tool.structuredContent).toEqual(await get("/changes?kind=correction"));
  });

  it("the record's sources cite each correction with its report and basis (include=sources, REST and MCP)", async () => {
    const village = (await get(`/${VILLAGE}?include=sources`)).data.sources;
    expect(village.postal_code.corrections).toContainEqual(
      expect.objectContaining({
        kind: "report",
        report_id: "rpt_testPostal0000001",
        basis: "Pos Indonesia, kodepos 2026",
        source_file: "seed/corrections.csv",
      }),
    );
    const kecamatan = (await get(`/kecamatan/${KECAMATAN}?include=sources`)).data.sources;
    expect(kecamatan.code_name.corrections).toContainEqual(
      expect.objectContaining({ kind: "report", report_id: "rpt_testName000000001", basis: "Perbup Aceh Selatan 12/2026" }),
    );
    const tool = await mcpTool(key, "wilayah_detail", { id: KECAMATAN, include: "sources" });
    expect((tool.structuredContent as { data: { sources: unknown } }).data.sources).toEqual(kecamatan);
  });
});
