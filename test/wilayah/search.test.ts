/**
 * Search as people type places (issues 15 and 28; docs/api.md "Search"): context, administrative
 * words, aliases, names as people write them (spacing, short forms, old spellings, historic names),
 * typos, codes and postal codes. The ranking rules of plain names are in wilayah.test.ts,
 * the measured quality over generated queries in search-quality.test.ts.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, json, seedUserWithKey } from "../helpers";

type Reading = { kind: string; rewrites: { typed: string; read: string }[] };
type Match = {
  type: string;
  name: string | null;
  context: string[];
  fuzzy: boolean;
  corrections: { typed: string; matched: string }[];
  reading: Reading | null;
};
type Item = { id: string; name: string; alt_name: string; level: string; parent: string | null; is_active: number; match: Match };

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});

async function search(q: string, extra = "") {
  const res = await call(`/api/v1/wilayah/search?q=${encodeURIComponent(q)}${extra}`, { key });
  expect(res.status, `q=${q}`).toBe(200);
  return json<{ data: Item[]; meta: { total: number; page: number; per_page: number; total_pages: number } }>(res);
}
const ids = (r: { data: Item[] }) => r.data.map((x) => x.id);

describe("context: a region with its parents, in any order", () => {
  it.each([
    ["gambir jakarta", "31.71.01"],
    ["jakarta gambir", "31.71.01"],
    ["coblong, kota bandung", "32.73.02"],
    ["coblong bandung", "32.73.02"],
    ["kuta badung bali", "51.03.01"],
    ["kuta, badung", "51.03.01"],
    ["lowokwaru malang", "35.73.05"],
    ["bali kuta", "51.03.01"],
  ])("%s finds %s first, saying which words matched what", async (q, id) => {
    const { data } = await search(q);
    expect(data[0].id).toBe(id);
    expect(data[0].match.type).toBe("exact");
    expect(data[0].match.fuzzy).toBe(false);
    expect(data[0].match.context.length).toBeGreaterThan(0);
    expect(`${data[0].match.name} ${data[0].match.context.join(" ")}`.split(/[ ,]+/).sort()).toEqual(q.split(/[ ,]+/).filter(Boolean).sort());
  });

  it("the region whose own name matches ranks before regions that only match the words elsewhere", async () => {
    const { data } = await search("gambir jakarta");
    expect(data[0]).toMatchObject({ id: "31.71.01", level: "kecamatan", match: { name: "gambir", context: ["jakarta"] } });
    expect(data[1]).toMatchObject({ id: "31.71.01.1001", level: "kelurahan" });
  });

  it("a name that is itself several words still matches as typed first (jakarta selatan, bandung barat)", async () => {
    expect((await search("jakarta selatan")).data[0]).toMatchObject({ id: "31.74", match: { type: "exact", context: [] } });
    expect((await search("bandung barat")).data[0]).toMatchObject({ id: "32.17", match: { type: "exact", context: [] } });
  });

  it("context narrows homonyms: sukamaju with its kecamatan", async () => {
    const { rows } = await env.DB.prepare(
      "SELECT k.id, c.name AS kec FROM kelurahan k JOIN kecamatan c ON c.id = k.kecamatan_id WHERE k.name = 'Sukamaju' AND k.is_active = 1 ORDER BY k.id LIMIT 3",
    )
      .all<{ id: string; kec: string }>()
      .then((r) => ({ rows: r.results }));
    for (const r of rows) expect((await search(`sukamaju ${r.kec}`)).data.slice(0, 3).map((x) => x.id)).toContain(r.id);
  });
});

describe("administrative words are level hints", () => {
  it("kota and kabupaten (and kab, kab.) tell Kota Bandung from Kabupaten Bandung", async () => {
    expect(ids(await search("kota bandung"))[0]).toBe("32.73");
    for (const q of ["kabupaten bandung", "kab bandung", "kab. bandung", "Kab. Bandung"]) expect(ids(await search(q))[0], q).toBe("32.04");
    expect(ids(await search("kab garut"))[0]).toBe("32.05");
    expect(ids(await search("kota jakarta selatan"))[0]).toBe("31.74");
  });

  it("kec, kel, desa, ds, prov prefer their level and are not matched as name text", async () => {
    expect((await search("kec. coblong")).data[0]).toMatchObject({ id: "32.73.02", match: { name: "coblong" } });
    expect((await search("kecamatan coblong")).data[0].id).toBe("32.73.02");
    const dago = await search("kel. dago");
    expect(dago.data[0]).toMatchObject({ level: "kelurahan", name: "Dago" });
    expect(ids(dago)).toContain("32.73.02.1004");
    // "bandung" alone ranks the regencies first; with kecamatan, the districts named Bandung come first
    const kec = await search("kecamatan bandung");
    expect(kec.data.slice(0, 2).every((r) => r.level === "kecamatan" && r.name === "Bandung")).toBe(true);
    expect((await search("prov jawa barat")).data[0].id).toBe("32");
    expect((await search("desa sukamaju")).data[0]).toMatchObject({ level: "kelurahan", name: "Sukamaju" });
  });

  it("an administrative word that is part of a name still finds that name (kota baru, 50 kota)", async () => {
    expect((await search("kotabaru")).data[0].id).toBe("63.02");
    expect(ids(await search("50 kota"))).toContain("13.07");
    expect((await search("kota")).meta.total).toBeGreaterThan(10);
  });
});

describe("aliases", () => {
  it.each([
    ["kalbar", "61"],
    ["jabar", "32"],
    ["jaksel", "31.74"],
    ["jakpus", "31.71"],
    ["solo", "33.72"],
    ["ujung pandang", "73.71"],
    ["irian jaya", "91"],
    ["tangsel", "36.74"],
    ["Bau-Bau", "74.72"],
    ["jogja", "34"],
  ])("%s finds %s first", async (q, id) => {
    const { data } = await search(q);
    expect(data[0]).toMatchObject({ id, match: { type: "exact", fuzzy: false } });
  });
});

describe("names as people write them: spacing, short forms, old spellings, historic names", () => {
  it.each([
    ["pematang siantar", "12.72", "spacing", [{ typed: "pematang siantar", read: "pematangsiantar" }]],
    ["bukit tinggi", "13.75", "spacing", [{ typed: "bukit tinggi", read: "bukittinggi" }]],
    ["padangpanjang", "13.74", "spacing", [{ typed: "padangpanjang", read: "padang panjang" }]],
    ["tg pinang", "21.72", "abbreviation", [{ typed: "tg", read: "tanjung" }]],
    ["Tg. Pinang", "21.72", "abbreviation", [{ typed: "tg", read: "tanjung" }]],
    ["sby", "35.78", "abbreviation", [{ typed: "sby", read: "surabaya" }]],
    ["kab bdg", "32.04", "abbreviation", [{ typed: "bdg", read: "bandung" }]],
    ["kodya bandung", "32.73", "abbreviation", [{ typed: "kodya", read: "kota" }]],
    ["soerabaja", "35.78", "spelling", [{ typed: "soerabaja", read: "surabaya" }]],
    ["tjirebon", "32.09", "spelling", [{ typed: "tjirebon", read: "cirebon" }]],
    ["buitenzorg", "32.71", "historic", [{ typed: "buitenzorg", read: "kota bogor" }]],
    ["fort de kock", "13.75", "historic", [{ typed: "fort de kock", read: "kota bukittinggi" }]],
  ])("%s finds %s first, saying the reading (%s)", async (q, id, kind, rewrites) => {
    const { data } = await search(q);
    expect(data[0]).toMatchObject({ id, match: { type: "exact", fuzzy: false, corrections: [], reading: { kind, rewrites } } });
  });

  it("a reading's matches rank like the query typed that way; a match as typed says reading null", async () => {
    // Eight villages are named Bukit Tinggi: the city and they are all exact matches, the city first as a kota.
    const { data } = await search("bukit tinggi", "&per_page=10");
    expect(data[0]).toMatchObject({ id: "13.75", match: { type: "exact", name: "bukittinggi" } });
    const villages = data.filter((r) => r.name === "Bukit Tinggi");
    expect(villages.length).toBeGreaterThan(3);
    for (const v of villages) expect(v.match).toMatchObject({ type: "exact", name: "bukit tinggi", reading: null });
    // Queries without readings say so.
    for (const q of ["bandung", "gambir jakarta", "kab garut", "bandng", "32.04"]) {
      expect((await search(q)).data.every((r) => r.match.reading === null)).toBe(true);
    }
  });

  it("readings keep parents and hints; a word read in the old spelling is not also corrected as a typo", async () => {
    const { data } = await search("soerabaja, djawa timoer");
    expect(data[0]).toMatchObject({ id: "35.78", match: { name: "surabaya", context: ["jawa", "timur"], reading: { kind: "spelling" } } });
    expect(data[0].match.reading?.rewrites).toEqual([
      { typed: "soerabaja", read: "surabaya" },
      { typed: "djawa", read: "jawa" },
      { typed: "timoer", read: "timur" },
    ]);
    expect(data.every((r) => !r.match.fuzzy)).toBe(true);
  });

  it("matches of every reading rank before corrected typos; a word only split is still corrected", async () => {
    // `padangpanjang` is read as `padang panjang` (Kota Padang Panjang and the villages so named) and,
    // being no word, also corrected (2 edits from 8 letters).
    const { data } = await search("padangpanjang", "&per_page=50");
    const firstFuzzy = data.findIndex((r) => r.match.fuzzy);
    const lastRead = data.findLastIndex((r) => r.match.reading !== null);
    expect(lastRead).toBeGreaterThan(0);
    expect(firstFuzzy).toBeGreaterThan(lastRead);
    expect(data[firstFuzzy].match.reading).toBeNull();
    // `sobanan` splits into `soba nan`, which finds nothing; it is the typo of `sobangan`.
    expect((await search("sobanan")).data[0]).toMatchObject({ name: "Sobangan", match: { fuzzy: true, reading: null } });
  });

  it("a word of some official name is read as typed, never rewritten (soe: Soe; kp: Dayah Kp Pisang)", async () => {
    const soe = await search("soe");
    expect(soe.data[0]).toMatchObject({ match: { type: "exact", name: "soe", reading: null } });
    expect(soe.data.every((r) => r.match.reading === null)).toBe(true);
    const kp = await search("kp pisang");
    expect(kp.data[0]).toMatchObject({ name: "Dayah Kp Pisang", match: { reading: null } });
    expect(kp.data.every((r) => r.match.reading === null)).toBe(true);
  });
});

describe("typos", () => {
  it.each([
    ["bandng", "bandung", ["32.04", "32.73"]],
    ["cirebn", "cirebon", ["32.09", "32.74"]],
    ["surabya", "surabaya", ["35.78"]],
    ["yogyakrata", "yogyakarta", ["34"]], // transposition = 1 edit
    ["banjarmsain", "banjarmasin", ["63.71"]],
  ])("%s finds %s, marked fuzzy", async (q, word, expected) => {
    const { data } = await search(q);
    expect(
      data
        .slice(0, expected.length)
        .map((r) => r.id)
        .sort(),
    ).toEqual([...expected].sort());
    expect(data[0].match).toMatchObject({ fuzzy: true, corrections: [{ typed: q, matched: word }] });
  });

  it("fuzzy matches rank after every exact, prefix and word match; a word that matches is never corrected", async () => {
    const { data } = await search("bandung");
    expect(data.every((r) => !r.match.fuzzy)).toBe(true);
    const { data: mix } = await search("coblong bandng");
    expect(mix[0]).toMatchObject({ id: "32.73.02", match: { fuzzy: true, name: "coblong", context: ["bandung"] } });
  });

  it("the likelier correction first: one edit before two, a letter missed or two swapped before one changed (issue 52)", async () => {
    for (const [q, matched, id] of [
      ["pldumbangan", "plumbangan", "35.05.18.2003"], // one edit, before Panumbangan and Plumbungan, two
      ["wengi", "wenigi", "95.04.34.2008"], // an i missed, before Wangi (a changed) though Wangi is more used
      ["kalimutki", "kalimukti", "32.09.04.2010"], // kt swapped, before Kalimati
    ]) {
      const { data } = await search(q);
      expect(data[0], q).toMatchObject({ id, match: { type: "exact", fuzzy: true, corrections: [{ typed: q, matched }] } });
    }
  });

  it("a word that is itself a name, misspelt, with its kabupaten: corrected when nothing matches as typed (issue 35)", async () => {
    for (const [q, typed, matched, id] of [
      ["darmaga bogor", "darmaga", "dramaga", "32.01.30"],
      ["mardinding karo", "mardinding", "mardingding", "12.06.10"],
      ["mandangin sarolangun", "mandangin", "mandiangin", "15.03.06"],
    ]) {
      const { data } = await search(q);
      expect(data[0], q).toMatchObject({ id, match: { fuzzy: true, corrections: [{ typed, matched }] } });
    }
  });

  it("a misspelt name that another region bears, with its kabupaten: compared with the kabupaten's kecamatan and villages (issue 35)", async () => {
    // Since issue 52 a letter missed is the likeliest correction: `kujang` is read as `kunjang` by the
    // second statement (each word corrected in turn), an exact name with its kabupaten.
    const { data } = await search("kujang kediri");
    expect(data[0]).toMatchObject({
      id: "35.06.21",
      name: "Kunjang",
      match: { type: "exact", fuzzy: true, context: ["kediri"], corrections: [{ typed: "kujang", matched: "kunjang" }] },
    });
    // `kaur` (Kadur) is a name elsewhere and none of its likeliest corrections: only the comparison
    // with Pamekasan's kecamatan and villages finds it.
    expect((await search("kaur pamekasan")).data[0]).toMatchObject({
      id: "35.28.12",
      name: "Kadur",
      match: { type: "word", fuzzy: true, context: ["pamekasan"], corrections: [{ typed: "kaur", matched: "kadur" }] },
    });
    expect((await search("yosowinangun lumajang")).data[0]).toMatchObject({ id: "35.08.07", match: { fuzzy: true } });
    expect((await search("kujang kediri", "&level=kelurahan")).data.every((r) => r.level === "kelurahan")).toBe(true);
    expect((await search("qqqqqq kediri")).meta.total).toBe(0);
  });

  it("the short and regional forms of real writing (issue 35)", async () => {
    for (const [q, id] of [
      ["sungai rampah", "12.18.04"],
      ["sei kakap", "61.12.09"],
      ["padang utr", "13.71.04"],
      ["bukit barisan", "13.07.12"],
      ["ilir timur ii", "16.71.06"],
    ])
      expect(ids(await search(q)).slice(0, 3), q).toContain(id);
  });

  it("short words are not corrected (1 edit from 4 letters, 2 from 8)", async () => {
    expect((await search("xyz")).meta.total).toBe(0);
    expect((await search("bxli")).data[0]).toMatchObject({ name: "Bali", match: { fuzzy: true } });
    expect((await search("bxxi")).data.every((r) => !r.match.fuzzy)).toBe(true);
    expect((await search("cxrebxn")).data.every((r) => !r.match.fuzzy)).toBe(true); // 2 edits in 7 letters
    expect((await search("banjxrmxsin")).data[0]).toMatchObject({ id: "63.71", match: { fuzzy: true } }); // 2 edits in 11 letters
  });
});

describe("codes and postal codes", () => {
  it.each([
    ["32", "32"],
    ["32.04", "32.04"],
    ["3204", "32.04"],
    ["32.73.02", "32.73.02"],
    ["327302", "32.73.02"],
    ["32.73.02.1004", "32.73.02.1004"],
    ["3273021004", "32.73.02.1004"],
  ])("%s returns %s first", async (q, id) => {
    const { data } = await search(q);
    expect(data[0]).toMatchObject({ id, match: { type: "code" } });
  });

  it("a postal code returns its villages", async () => {
    const { data, meta } = await search("40135"); // Dago and its neighbours in Coblong
    expect(meta.total).toBeGreaterThan(0);
    expect(data.every((r) => r.level === "kelurahan" && r.match.type === "postal_code")).toBe(true);
    const { results } = await env.DB.prepare("SELECT count(*) AS n FROM wilayah_postal WHERE postal = '40135'").all<{ n: number }>();
    expect(meta.total).toBe(results[0].n);
  });

  it("the level filter and include_inactive still apply", async () => {
    expect((await search("3204", "&level=kelurahan")).data.some((r) => r.match.type === "code")).toBe(false);
    expect((await search("gambir jakarta", "&level=kelurahan")).data[0].id).toBe("31.71.01.1001");
  });
});
