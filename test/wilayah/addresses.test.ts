/**
 * Addresses through HTTP and MCP (issue 24): GET /wilayah/address?q= and POST /wilayah/address, the
 * answer's fields, the warnings, batches (order, metering, refused whole), the statements per batch.
 * The rates over the generated set: test/wilayah/address-quality.test.ts.
 */
import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { call, createKey, expectError, json, mcpTool, seedUserWithKey, setPlan, verifiedDeveloper, waitForTotal } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});
afterEach(() => vi.restoreAllMocks());

const get = (q: string, k = key) => call(`/api/v1/wilayah/address?q=${encodeURIComponent(q)}`, { key: k });
const post = (body: unknown, k = key) => call("/api/v1/wilayah/address", { key: k, method: "POST", json: body });
const one = async (q: string) => {
  const res = await get(q);
  expect(res.status, q).toBe(200);
  return (await json(res)).data;
};

describe("GET /wilayah/address", () => {
  it("reads a complete address: components as written, the four levels, the village's postal code, what matched which level", async () => {
    const a = await one("Jl. Asia Afrika No. 8, Braga, Sumur Bandung, Kota Bandung, Jawa Barat 40111");
    expect(a).toEqual({
      input: "Jl. Asia Afrika No. 8, Braga, Sumur Bandung, Kota Bandung, Jawa Barat 40111",
      components: {
        street: "Jl. Asia Afrika",
        house_number: "8",
        rt: null,
        rw: null,
        block: null,
        building: null,
        complex: null,
        dusun: null,
        postal_code: "40111",
      },
      kelurahan: { id: "32.73.19.1001", name: "Braga" },
      kecamatan: { id: "32.73.19", name: "Sumur Bandung" },
      kabupaten: { id: "32.73", name: "Kota Bandung" },
      provinsi: { id: "32", name: "Jawa Barat" },
      postal_code: "40111",
      level: "kelurahan",
      confidence: 1,
      alternatives: [],
      warnings: [],
      matched: [
        { level: "kelurahan", id: "32.73.19.1001", text: "Braga", read: "braga", via: "name", reading: null },
        { level: "kelurahan", id: "32.73.19.1001", text: "40111", read: "40111", via: "postal_code", reading: null },
        { level: "kecamatan", id: "32.73.19", text: "Sumur Bandung", read: "sumur bandung", via: "name", reading: null },
        { level: "kabupaten", id: "32.73", text: "Bandung", read: "kota bandung", via: "name", reading: null },
        { level: "provinsi", id: "32", text: "Jawa Barat", read: "jawa barat", via: "name", reading: null },
      ],
    });
  });

  it("reads KTP capitals with RT/RW and a dusun, lowercase chat with short forms, any order", async () => {
    const ktp = await one("DSN KRAJAN RT 002 RW 001 DESA SUKOREJO KEC. BANGSALSARI KAB. JEMBER");
    expect(ktp).toMatchObject({ kelurahan: { id: "35.09.09.2006" }, kabupaten: { id: "35.09", name: "Kabupaten Jember" }, level: "kelurahan" });
    expect(ktp.components).toMatchObject({ rt: "002", rw: "001", dusun: "KRAJAN" });
    expect(ktp.confidence).toBeGreaterThan(0.9);
    const chat = await one("kel cihapit kec bandung wetan bdg");
    expect(chat.kelurahan.id).toBe("32.73.09.1001");
    expect(chat.matched).toContainEqual({ level: "kabupaten", id: "32.73", text: "bdg", read: "bandung", via: "reading", reading: "abbreviation" });
    const jaksel = await one("jl kemang raya no 10 rt 03/rw 02 bangka mampang prapatan jaksel");
    expect(jaksel).toMatchObject({ kelurahan: { name: "Bangka" }, kabupaten: { id: "31.74" }, components: { rt: "03", rw: "02", house_number: "10" } });
    const reversed = await one("Jawa Barat, Kota Bandung, Kecamatan Sumur Bandung, Kelurahan Braga");
    expect(reversed.kelurahan.id).toBe("32.73.19.1001");
  });

  it("a street named after a region is no region (Jl. Bandung in Malang); a housing complex neither", async () => {
    const a = await one("Jl. Bandung No. 12, Sumbersari, Lowokwaru, Kota Malang");
    expect(a).toMatchObject({ kelurahan: { id: "35.73.05.1005" }, kabupaten: { id: "35.73" }, components: { street: "Jl. Bandung", house_number: "12" } });
    const perum = await one("Perum Griya Cimahi Blok C2 No. 5, Cihapit, Bandung Wetan, Kota Bandung");
    expect(perum).toMatchObject({ kelurahan: { id: "32.73.09.1001" }, components: { complex: "Perum Griya Cimahi", block: "C2", house_number: "5" } });
  });

  it("reads what people write beyond the generated set: short forms, kampung names, no commas at all, a city alone", async () => {
    expect((await one("Jl. Diponegoro No.1, Kel. Ps. Baru, Kec. Sawah Besar, Jakpus")).kelurahan).toEqual({ id: "31.71.02.1001", name: "Pasar Baru" });
    const kampung = await one("Kp. Rambutan, Ciracas, Jaktim");
    expect(kampung).toMatchObject({ kelurahan: { id: "31.75.09.1005", name: "Rambutan" }, components: { dusun: null } });
    const chat = await one("jl. raya serang km 12 bitung jaya cikupa tangerang");
    expect(chat).toMatchObject({ kelurahan: { id: "36.03.18.2009", name: "Bitung Jaya" }, kecamatan: { name: "Cikupa" }, kabupaten: { id: "36.03" } });
    // A city alone means the city (Kota before Kabupaten on a bare name), not a village called Bandung in Jawa Tengah.
    const city = await one("Gedung Sate, Bandung");
    expect(city).toMatchObject({ level: "kabupaten", kabupaten: { id: "32.73" }, components: { building: "Gedung Sate" } });
    expect(city.confidence).toBeLessThan(0.5);
    expect((await one("Kota Baru, Pontianak Selatan, Kota Pontianak")).kelurahan).toEqual({ id: "61.71.01.1005", name: "Kotabaru" });
  });

  it("warns: typo_corrected, postal_code_mismatch, kabupaten_inconsistent, former_name", async () => {
    const typo = await one("Jl. Merdeka 5 Cihapitt Bandung Wetan Kota Bandung");
    expect(typo).toMatchObject({ kelurahan: { id: "32.73.09.1001" }, warnings: ["typo_corrected"] });
    expect(typo.matched[0]).toMatchObject({ text: "Cihapitt", read: "cihapit", via: "typo" });
    const postal = await one("Braga, Kota Bandung 40999");
    expect(postal).toMatchObject({
      kelurahan: { id: "32.73.19.1001" },
      postal_code: "40111",
      components: { postal_code: "40999" },
      warnings: ["postal_code_mismatch"],
    });
    const twin = await one("Cihapit, Bandung Wetan, Kabupaten Bandung");
    expect(twin).toMatchObject({ kelurahan: { id: "32.73.09.1001" }, kabupaten: { id: "32.73" }, warnings: ["kabupaten_inconsistent"] });
    // Tamarundung (Wara Barat, Kota Palopo) was Tomarundung in the previous edition
    const former = await one("Tomarundung, Kec. Wara Barat, Kota Palopo");
    expect(former.warnings).toContain("former_name");
    expect(former.kelurahan.name).toBe("Tamarundung");
    expect(former.matched[0]).toMatchObject({ via: "former_name", read: "tomarundung" });
  });

  it("reads region codes written in the address: a current one, one of an earlier edition (former_code), one alone with no name", async () => {
    const current = await one("Braga 3273191001");
    expect(current).toMatchObject({ kelurahan: { id: "32.73.19.1001", name: "Braga" }, warnings: [] });
    expect(current.matched).toContainEqual({ level: "kelurahan", id: "32.73.19.1001", text: "3273191001", read: "32.73.19.1001", via: "code", reading: null });
    // Yowied, Tubang, Merauke: 91.01.15.2001 until Papua Selatan (93) was formed in 2022
    const recoded = await one("Desa Yowied (9101152001), Kec. Tubang, Kab. Merauke");
    expect(recoded).toMatchObject({ kelurahan: { id: "93.01.15.2001", name: "Yowied" }, kabupaten: { id: "93.01" }, warnings: ["former_code"] });
    expect(recoded.confidence).toBeGreaterThan(0.9);
    expect(recoded.matched).toContainEqual(expect.objectContaining({ via: "former_code", text: "9101152001", read: "91.01.15.2001", id: "93.01.15.2001" }));
    const alone = await one("Jl. Raya Mandala No. 3, Kode Wilayah: 91.01.15.2001");
    expect(alone).toMatchObject({ kelurahan: { id: "93.01.15.2001" }, level: "kelurahan", warnings: ["former_code"] });
    expect(alone.components.street).toBe("Jl. Raya Mandala");
    // A kabupaten code of an earlier edition: 91.01 was Merauke's
    const kabupaten = await one("Merauke, 91.01");
    expect(kabupaten).toMatchObject({ kabupaten: { id: "93.01" } });
    expect(kabupaten.warnings).toContain("former_code");
    // Not a code of any edition: no evidence, the names decide, and the answer says so
    expect(await one("Braga, Kota Bandung, 32.73.99.1999")).toMatchObject({ kelurahan: { id: "32.73.19.1001" }, warnings: ["unknown_code"] });
  });

  it("a kecamatan written with its level word binds the answer: a village of another kecamatan is kecamatan_inconsistent", async () => {
    const r = await one("Braga, Kec. Coblong, Kota Bandung");
    expect(r).toMatchObject({ level: "kecamatan", kecamatan: { id: "32.73.02" }, kelurahan: null });
    expect(r.warnings).toContain("kecamatan_inconsistent");
    expect(r.confidence).toBeLessThan(0.5);
    expect(r.alternatives.map((a: { id: string }) => a.id)).toContain("32.73.19.1001");
    expect((await one("Braga, Kec. Sumur Bandung, Kota Bandung")).warnings).toEqual([]);
  });

  it("a name many villages bear: low confidence, ambiguous, alternatives; village and city settle it", async () => {
    const alone = await one("Sukamaju");
    expect(alone.confidence).toBeLessThan(0.5);
    expect(alone.warnings).toContain("ambiguous");
    expect(alone.alternatives).toHaveLength(3);
    for (const alt of alone.alternatives)
      expect(alt).toEqual({ id: expect.any(String), name: "Sukamaju", level: "kelurahan", parent: expect.any(String), confidence: expect.any(Number) });
    // Four Sukamaju in Kabupaten Bogor: the kabupaten is sure, the village is not; the kecamatan settles it.
    const bogor = await one("Sukamaju, Kabupaten Bogor");
    expect(bogor.kabupaten.id).toBe("32.01");
    expect(bogor.confidence).toBeLessThan(0.5);
    expect(bogor.alternatives.every((a: { id: string }) => a.id.startsWith("32.01."))).toBe(true);
    const settled = await one("Sukamaju, Cibungbulang, Kabupaten Bogor");
    expect(settled).toMatchObject({ kelurahan: { id: "32.01.16.2013" }, kecamatan: { name: "Cibungbulang" }, warnings: [] });
    expect(settled.confidence).toBeGreaterThan(0.9);
  });

  it("answers a kecamatan or kabupaten when no village fits, and nothing when nothing does", async () => {
    const kec = await one("Kecamatan Bandung Wetan, Kota Bandung");
    expect(kec).toMatchObject({ level: "kecamatan", kelurahan: null, kecamatan: { id: "32.73.09" }, kabupaten: { id: "32.73" }, postal_code: null });
    const kab = await one("Kota Malang, Jawa Timur");
    expect(kab).toMatchObject({ level: "kabupaten", kelurahan: null, kecamatan: null, kabupaten: { id: "35.73" }, provinsi: { id: "35" } });
    const none = await one("Jl. Merdeka No. 5");
    expect(none).toMatchObject({
      level: null,
      kelurahan: null,
      kabupaten: null,
      confidence: 0,
      alternatives: [],
      matched: [],
      components: { street: "Jl. Merdeka" },
    });
  });

  it("refuses a missing, empty or too long q (500 characters at most)", async () => {
    await expectError(await call("/api/v1/wilayah/address", { key }), 400, "INVALID_QUERY");
    await expectError(await get(""), 400, "INVALID_QUERY");
    await expectError(await get("x".repeat(501)), 400, "INVALID_QUERY");
    expect((await get(`Braga, Bandung ${"x".repeat(480)}`)).status).toBe(200);
  });
});

describe("real writing (issue 35): never contradict what the text says, and say so when unsure", () => {
  const kec = (a: { kecamatan: { id: string } | null }) => a.kecamatan?.id;

  it("1. a kecamatan written with Kec. binds the answer; the village of that name inside it wins", async () => {
    // Two villages named Kunjang in Kabupaten Kediri: one in Ngancar, one in Kunjang.
    expect(await one("Desa Kunjang, Kec. Ngancar, Kab. Kediri")).toMatchObject({ kelurahan: { id: "35.06.07.2005" }, warnings: [] });
    expect(await one("Desa Kunjang, Kec. Kunjang, Kab. Kediri")).toMatchObject({ kelurahan: { id: "35.06.21.2005" } });
  });

  it("2. never outside a province or kabupaten the text names; nothing inside fits: that region, unsure", async () => {
    const r = await one("Jl. Merdeka, Kec. Tengah Jawa, Kab. Aceh Besar, Prov. Aceh");
    expect(r).toMatchObject({ level: "kabupaten", kabupaten: { id: "11.06" }, kecamatan: null });
    expect(r.confidence).toBeLessThan(0.5);
    for (const a of r.alternatives) expect(a.id.startsWith("11.06.")).toBe(true);
    // A province alone, after the kecamatan: the answer stays in it (Bawang is a kecamatan of Jawa Tengah twice).
    expect((await one("Kec. Bawang, Jawa Tengah")).provinsi.id).toBe("33");
    // A `Kota X` inside the street is no named region: the kabupaten written last wins.
    expect(await one("Jl. Raya Kota Batu, Kec. Muaradua, Kab. Ogan Komering Ulu Selatan, Prov. Sumatera Selatan")).toMatchObject({
      kabupaten: { id: "16.09" },
    });
  });

  it.each([
    ["Jl. Raya, Kec. Kujang, Kab. Kediri, Prov. Jawa Timur", "35.06.21"],
    ["Kec. Darmaga, Kab. Bogor, Prov. Jawa Barat", "32.01.30"],
    ["Kec. Yosowinangun, Kab. Lumajang", "35.08.07"],
    ["Kec. Mardinding, Kab. Karo", "12.06.10"],
    ["Kec. Mandangin, Kab. Sarolangun, Prov. Jambi", "15.03.06"],
    ["Jalan Kuta Mbacang, Kec. Sinembah Tnjng Muda Hulu, Kab. Deli Serdang", "12.07.20"],
  ])("3. a misspelt kecamatan inside the named region: %s", async (q, id) => {
    const r = await one(q);
    expect(kec(r)).toBe(id);
    expect(r.warnings).toContain("typo_corrected");
  });

  it("3. a kecamatan named only by a part of what is written loses to one a letter off in whole; a short one is compared too", async () => {
    expect(await one("Jln Teknik, Kec. Telaga Jaya, Kab. Gorontalo")).toMatchObject({ kecamatan: { id: "75.01.22", name: "Talaga Jaya" } });
    expect(await one("Tologo, Kec. Alu, Kab. Polewali Mandar")).toMatchObject({ kecamatan: { id: "76.04.15", name: "Allu" } });
    // A kecamatan whose name starts with a number keeps its level word.
    expect(await one("Kiambang, Kec. 2 x 11 Enam Lingkung, Kab. Padang Pariaman")).toMatchObject({ kecamatan: { id: "13.05.04" } });
  });

  it("a kecamatan written that the named region does not have: the answer stops above it and says so (kecamatan_unknown)", async () => {
    const r = await one("Talang Ralangan, Kec. Buay Pmatng Rbu Rnau Tngh, Kab. Ogan Komering Ulu Selatan, Prov. Sumatera Selatan");
    expect(r).toMatchObject({ level: "kabupaten", kabupaten: { id: "16.09" }, kecamatan: null });
    expect(r.warnings).toContain("kecamatan_unknown");
  });

  it.each([
    ["Kec. Sungai Rampah, Kab. Serdang Bedagai", "12.18.04"],
    ["Kec. Sei Kakap, Kab. Kubu Raya", "61.12.09"],
    ["Kec. Padang Utr., Kota Padang", "13.71.04"],
    ["Kec. Tanjung Karang Bar., Kota Bandar Lampung", "18.71.03"],
    ["Kec. Bukit Barisan, Kab. Lima Puluh Kota", "13.07.12"],
    ["Kec. Juang, Kab. Bireuen", "11.11.13"],
    ["Kec. Kota Padang Utara, Kota Padang", "13.71.04"],
    ["Kec. Ilir Timur II, Kota Palembang", "16.71.06"],
    ["Kec. Wangi-Wangi Selatan, Kab. Wakatobi", "74.07.05"],
    ["Kec. Kepulauan Seribu Utara, Kab. Kep. Seribu", "31.01.01"],
  ])("4. short and regional forms: %s", async (q, id) => {
    expect(kec(await one(q))).toBe(id);
  });

  it("5. the competing reading comes first among the alternatives, and the confidence says they tie", async () => {
    const r = await one("Kec. Bawang, Jawa Tengah");
    expect(r.level).toBe("kecamatan");
    const both = [r.kecamatan.id, r.alternatives[0].id].sort();
    expect(both).toEqual(["33.04.05", "33.25.05"]);
    expect(r.alternatives[0]).toMatchObject({ level: "kecamatan", name: "Bawang" });
    expect(r.confidence).toBeLessThan(0.6);
    expect(r.warnings).toContain("ambiguous");
  });

  it("6. a village a split moved, written with its old kecamatan: today's village, kecamatan_former naming the old one", async () => {
    const r = await one("Desa Ladang Tuha I, Kec. Manggeng, Kab. Aceh Barat Daya");
    expect(r).toMatchObject({ kelurahan: { id: "11.12.09.2011" }, kecamatan: { id: "11.12.09", name: "Lembah Sabil" } });
    expect(r.warnings).toContain("kecamatan_former");
    expect(r.warnings).not.toContain("kecamatan_inconsistent");
    expect(r.matched).toContainEqual({ level: "kecamatan", id: "11.12.03", text: "Manggeng", read: "manggeng", via: "former_kecamatan", reading: null });
  });

  it("the MCP tool answers these as REST does", async () => {
    const addresses = ["Kec. Bawang, Jawa Tengah", "Desa Ladang Tuha I, Kec. Manggeng, Kab. Aceh Barat Daya", "Kec. Kujang, Kab. Kediri"];
    const result = await mcpTool(key, "wilayah_address", { addresses });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await json(await post({ addresses })));
    const data = (result.structuredContent as { data: { kecamatan: { id: string } | null; warnings: string[] }[] }).data;
    expect(data.map(kec)).toEqual([expect.stringMatching(/^33\.(04|25)\.05$/), "11.12.09", "35.06.21"]);
    expect(data[1].warnings).toContain("kecamatan_former");
  });
});

describe("`Kota` inside a place's name (issue 52): never out of the province and kecamatan the text names", () => {
  // [text, kecamatan, province]: the four texts (each answered a Kota X of another province
  // before), then `Kota` inside a street, a hamlet and a village name, with and without commas.
  const cases: [string, string, string][] = [
    ["Pengalihan Keritang Kota Baru, Kec. Keritang, Riau", "14.04.09", "14"],
    ["Kota Baru, Kec. Martapura, Sumatera Selatan", "16.08.01", "16"],
    ["Aek Kota Batu, Kec. Bilah Na IX-X, Sumatera Utara", "12.23.06", "12"],
    ["Simpang Kota Medan, Kec. Kelayang, Riau", "14.02.03", "14"],
    ["Jl. Simpang Kota Medan No. 3, Kec. Kelayang, Riau", "14.02.03", "14"],
    ["Jalan Lintas Kota Baru, Kec. Keritang, Riau", "14.04.09", "14"],
    ["Dusun Kota Baru II, Desa Pengalihan, Kec. Keritang, Riau", "14.04.09", "14"],
    ["Dsn. Simpang Kota Medan, Kec. Kelayang, Riau", "14.02.03", "14"],
    ["Kampung Kota Batu, Kec. Na IX-X, Sumatera Utara", "12.23.06", "12"],
    ["Desa Aek Kota Batu, Kec. Na IX-X, Sumatera Utara", "12.23.06", "12"],
    ["Desa Kota Baru, Kec. Martapura, Sumatera Selatan", "16.08.01", "16"],
    ["simpang kota medan kec kelayang riau", "14.02.03", "14"],
  ];
  const texts = cases.map(([q]) => q);

  it.each(cases)("GET: %s is in kecamatan %s, province %s", async (q, kecamatan, provinsi) => {
    const r = await one(q);
    expect(r).toMatchObject({ kecamatan: { id: kecamatan }, provinsi: { id: provinsi } });
    for (const a of r.alternatives) expect(a.id.startsWith(`${provinsi}.`), `alternative ${a.id}`).toBe(true);
  });

  it("reads the whole village name the `Kota` is a word of (Simpang Kota Medan, Aek Kota Batu are villages)", async () => {
    expect(await one("Simpang Kota Medan, Kec. Kelayang, Riau")).toMatchObject({ kelurahan: { id: "14.02.03.2009", name: "Simpang Kota Medan" } });
    expect(await one("Aek Kota Batu, Kec. Bilah Na IX-X, Sumatera Utara")).toMatchObject({ kelurahan: { id: "12.23.06.1001" } });
    expect(await one("Pengalihan Keritang Kota Baru, Kec. Keritang, Riau")).toMatchObject({ kelurahan: { id: "14.04.09.2011", name: "Pengalihan" } });
  });

  it("a kota written plainly still binds; a province out of date loses to the kabupaten its kecamatan lies in", async () => {
    expect(await one("Kota Batu, Jawa Timur")).toMatchObject({ kabupaten: { id: "35.79" } });
    expect(await one("Kec. Merauke, Kab. Merauke, Prov. Papua")).toMatchObject({ kecamatan: { id: "93.01.01" }, provinsi: { id: "93" } });
    expect(await one("Kec. Sorong Manoi, Kota Sorong, Prov. Papua Barat")).toMatchObject({ kecamatan: { id: "96.71.06" } });
  });

  it("POST answers each as GET does", async () => {
    const res = await post({ addresses: texts });
    expect(res.status).toBe(200);
    const data = (await json<{ data: { kecamatan: { id: string } | null; provinsi: { id: string } | null }[] }>(res)).data;
    expect(data.map((a) => [a.kecamatan?.id, a.provinsi?.id])).toEqual(cases.map(([, k, p]) => [k, p]));
    expect(data[3]).toEqual(await one(texts[3]));
  });

  it("the MCP tool answers as REST does", async () => {
    const result = await mcpTool(key, "wilayah_address", { addresses: texts });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await json(await post({ addresses: texts })));
    const data = (result.structuredContent as { data: { kecamatan: { id: string } | null; provinsi: { id: string } | null }[] }).data;
    expect(data.map((a) => [a.kecamatan?.id, a.provinsi?.id])).toEqual(cases.map(([, k, p]) => [k, p]));
  });
});

describe("POST /wilayah/address", () => {
  it("answers in the order given, each like GET", async () => {
    const addresses = ["Braga, Kota Bandung", "Sumbersari, Lowokwaru, Kota Malang", "nothing here at all"];
    const res = await post({ addresses });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.data.map((a: { input: string }) => a.input)).toEqual(addresses);
    expect(body.data[0]).toEqual(await one("Braga, Kota Bandung"));
    expect(body.data[1].kelurahan.id).toBe("35.73.05.1005");
    await expectError(await post({ addresses: [] }), 400, "VALIDATION_ERROR");
    await expectError(await post({ addresses: Array.from({ length: 101 }, () => "Braga") }), 400, "VALIDATION_ERROR");
    await expectError(await post({ addresses: ["x".repeat(501)] }), 400, "VALIDATION_ERROR");
    await expectError(await post({ addresses: "Braga" }), 400, "VALIDATION_ERROR");
  });

  it("reads D1 in at most two statements for 100 addresses (three with region codes), not one per address", async () => {
    const villages = ["Cipaganti", "Dago", "Lebak Gede", "Lebak Siliwangi", "Sadang Serang", "Sekeloa"]; // Coblong's
    // Half with a village name nothing reads (answered at kecamatan level): the second round (the villages of an area) runs too.
    const addresses = Array.from({ length: 100 }, (_, i) =>
      i < 50 ? `${villages[i % 6]}qxz ${i}, Kec. Coblong, Kota Bandung` : `Jl. Merdeka No. ${i}, ${villages[i % 6]}, Kec. Coblong, Kota Bandung`,
    );
    await post({ addresses: ["Braga"] }); // the key is looked up and cached
    const prepare = vi.spyOn(env.DB, "prepare");
    const batch = vi.spyOn(env.DB, "batch");
    const res = await post({ addresses });
    expect(res.status).toBe(200);
    const data = (await json(res)).data;
    expect(data).toHaveLength(100);
    expect(data[0]).toMatchObject({ level: "kecamatan", kecamatan: { name: "Coblong" } });
    expect(data[99]).toMatchObject({ level: "kelurahan", kecamatan: { name: "Coblong" } });
    const regional = prepare.mock.calls.map(([q]) => String(q)).filter((q) => /wilayah_|json_each/.test(q));
    expect(regional).toHaveLength(2);
    expect(batch).not.toHaveBeenCalled();
    // Region codes in every address add one statement for the whole batch (what they stand for today).
    prepare.mockClear();
    const coded = await post({ addresses: addresses.map((a, i) => `${a}, ${i % 2 ? "3273021001" : "32.73.02.1002"}`) });
    expect(coded.status).toBe(200);
    expect((await json(coded)).data).toHaveLength(100);
    expect(prepare.mock.calls.map(([q]) => String(q)).filter((q) => /wilayah_|json_each/.test(q))).toHaveLength(3);
  });

  it("counts each address as one call, and refuses a batch the quota and credits cannot cover whole (402)", async () => {
    await env.DB.prepare(
      "INSERT OR IGNORE INTO plans (id, name, price_idr, monthly_quota, rate_limit_per_minute, features, sort, is_public) VALUES ('address10', 'Address test', 0, 10, 30, '[]', 54, 0)",
    ).run();
    const dev = await verifiedDeveloper();
    await setPlan(dev.data.id, "address10");
    const k = await createKey(dev.token, "addresses");
    await expectError(await post({ addresses: Array.from({ length: 11 }, (_, i) => `Braga ${i}`) }, k.key), 402, "QUOTA_EXCEEDED");
    expect((await post({ addresses: ["Braga, Bandung", "Cihapit, Bandung", "Dago, Bandung"] }, k.key)).status).toBe(200);
    expect((await get("Citarum, Bandung Wetan", k.key)).status).toBe(200);
    const usage = await waitForTotal(dev.token, 4);
    expect(usage.by_endpoint).toEqual([{ endpoint: "/wilayah/address", count: 4 }]);
    await expectError(await post({ addresses: Array.from({ length: 7 }, () => "Braga") }, k.key), 402, "QUOTA_EXCEEDED");
    expect((await post({ addresses: Array.from({ length: 6 }, () => "Braga") }, k.key)).status).toBe(200);
  });

  it("caches a batch's answer by its content (x-cache HIT the second time)", async () => {
    const body = { addresses: ["Lebak Gede, Coblong, Kota Bandung", "Dago, Coblong, Kota Bandung"] };
    expect((await post(body)).headers.get("x-cache")).toBe("MISS");
    const again = await post(body);
    expect(again.headers.get("x-cache")).toBe("HIT");
    expect((await json(again)).data[1].kelurahan.name).toBe("Dago");
  });

  it("caches per account: another customer's first ask of the same addresses is a MISS (a HIT would tell them someone asked)", async () => {
    const other = (await seedUserWithKey()).secret;
    const body = { addresses: ["Jl. Cihapit No. 12, Cihapit, Bandung Wetan, Kota Bandung"] };
    const q = "Jl. Cihapit No. 14, Cihapit, Bandung Wetan, Kota Bandung";
    expect((await post(body)).headers.get("x-cache")).toBe("MISS");
    expect((await get(q)).headers.get("x-cache")).toBe("MISS");
    expect((await post(body)).headers.get("x-cache")).toBe("HIT");
    expect((await get(q)).headers.get("x-cache")).toBe("HIT");
    const theirs = await post(body, other);
    expect(theirs.headers.get("x-cache")).toBe("MISS");
    expect((await get(q, other)).headers.get("x-cache")).toBe("MISS");
    // the same answer, computed for them
    expect((await json(theirs)).data).toEqual((await json(await post(body))).data);
    // Region data stays shared: one account's ask warms it for every caller.
    expect((await call("/api/v1/wilayah/search?q=cihapit%20bandung%20wetan", { key })).headers.get("x-cache")).toBe("MISS");
    expect((await call("/api/v1/wilayah/search?q=cihapit%20bandung%20wetan", { key: other })).headers.get("x-cache")).toBe("HIT");
  });
});

describe("MCP: wilayah_address (the POST declaration)", () => {
  it("answers what REST answers", async () => {
    const result = await mcpTool(key, "wilayah_address", { addresses: ["Braga, Sumur Bandung, Kota Bandung", "Sukamaju"] });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(await json(await post({ addresses: ["Braga, Sumur Bandung, Kota Bandung", "Sukamaju"] })));
  });
});
