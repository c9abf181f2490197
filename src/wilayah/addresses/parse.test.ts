import { describe, expect, it } from "vitest";
import { tokenize } from "./lexicon.ts";
import { type AddressComponents, parseAddress, readComponents, readLabels } from "./parse.ts";

const EMPTY: AddressComponents = {
  street: null,
  house_number: null,
  rt: null,
  rw: null,
  block: null,
  building: null,
  complex: null,
  dusun: null,
  postal_code: null,
};

/** The region segments as `marker:text` (`-:Braga` when unmarked). */
const regions = (text: string) => parseAddress(text).regions.map((r) => `${r.marker ?? "-"}:${r.text}`);
const components = (text: string) => parseAddress(text).components;

describe("address parser: components", () => {
  it("reads the marketplace form with commas (Google Maps' own order)", () => {
    const p = parseAddress("Jl. Asia Afrika No. 8, Braga, Kec. Sumur Bandung, Kota Bandung, Jawa Barat 40111");
    expect(p.components).toEqual({ ...EMPTY, street: "Jl. Asia Afrika", house_number: "8", postal_code: "40111" });
    expect(p.regions.map((r) => [r.marker, r.text, r.level, r.part])).toEqual([
      [null, "Braga", null, 1],
      ["kec", "Sumur Bandung", "kecamatan", 2],
      ["kota", "Bandung", "kabupaten", 3],
      [null, "Jawa Barat", null, 4],
    ]);
    expect(p.regions[2].raw).toBe("Kota Bandung");
    expect(p.regions[3].words).toEqual(["jawa", "barat"]);
    expect(p.streetOpen).toBe(false);
  });

  it("reads Google's RT.x/RW.y and glued numbers", () => {
    expect(components("Jl. Cikini Raya No.73, RT.13/RW.5, Cikini, Kec. Menteng, Kota Jakarta Pusat, Daerah Khusus Ibukota Jakarta 10330")).toEqual({
      ...EMPTY,
      street: "Jl. Cikini Raya",
      house_number: "73",
      rt: "13",
      rw: "5",
      postal_code: "10330",
    });
    expect(regions("Jl. Cikini Raya No.73, RT.13/RW.5, Cikini, Kec. Menteng, Kota Jakarta Pusat, Daerah Khusus Ibukota Jakarta 10330")).toEqual([
      "-:Cikini",
      "kec:Menteng",
      "kota:Jakarta Pusat",
      "-:Daerah Khusus Ibukota Jakarta",
    ]);
  });

  it("reads every RT/RW form", () => {
    const rtRw = (text: string) => {
      const c = components(text);
      return [c.rt, c.rw];
    };
    expect(rtRw("RT 003 RW 002")).toEqual(["003", "002"]);
    expect(rtRw("RT 03/RW 02")).toEqual(["03", "02"]);
    expect(rtRw("RT.003/RW.002")).toEqual(["003", "002"]);
    expect(rtRw("RT. 003 / RW. 002")).toEqual(["003", "002"]);
    expect(rtRw("rt 3 rw 5")).toEqual(["3", "5"]);
    expect(rtRw("Rt.01 Rw.02")).toEqual(["01", "02"]);
    expect(rtRw("RT03/RW02")).toEqual(["03", "02"]);
    expect(rtRw("RT003RW002")).toEqual(["003", "002"]);
    expect(rtRw("RT 01/02")).toEqual(["01", "02"]);
    expect(rtRw("RT/RW 003/002")).toEqual(["003", "002"]);
    expect(rtRw("RT/RW : 003/002")).toEqual(["003", "002"]);
    expect(rtRw("RW 05")).toEqual([null, "05"]);
    expect(rtRw("RT: 4, RW: 9")).toEqual(["4", "9"]);
  });

  it("reads house numbers in their forms", () => {
    const no = (text: string) => components(text).house_number;
    expect(no("Jl. Merdeka No. 12")).toBe("12");
    expect(no("Jl. Merdeka No.12A")).toBe("12A");
    expect(no("Jl. Merdeka no 12-14")).toBe("12-14");
    expect(no("Jl. Merdeka Nomor 7")).toBe("7");
    expect(no("Jl. Merdeka No: 7")).toBe("7");
    expect(no("Jl. Merdeka #7")).toBe("7");
    expect(no("Jl. Merdeka 7")).toBe("7");
    expect(no("Jl. Merdeka No. 5/7")).toBe("5/7");
    expect(no("Jl. Jend. Sudirman Kav. 52-53")).toBe("52-53");
    expect(no("JL MERDEKA NO12")).toBe("12");
  });

  it("reads blocks, complexes and buildings, with their own words", () => {
    expect(components("Perum Griya Asri Blok C2 No. 5, Ds. Sukamaju")).toMatchObject({ complex: "Perum Griya Asri", block: "C2", house_number: "5" });
    expect(components("Komplek Setiabudi Regency Blok A/12")).toMatchObject({ complex: "Komplek Setiabudi Regency", block: "A", house_number: "12" });
    expect(components("Komp. Bumi Asri blok c-2 no 5")).toMatchObject({ complex: "Komp. Bumi Asri", block: "c-2", house_number: "5" });
    expect(components("Perumahan Bandung Indah Blk. D No. 1, Kab. Bandung")).toMatchObject({ complex: "Perumahan Bandung Indah", block: "D" });
    expect(components("Gedung Sate, Jl. Diponegoro No. 22, Citarum")).toMatchObject({ building: "Gedung Sate", street: "Jl. Diponegoro", house_number: "22" });
    expect(components("Menara BCA Lt. 5, Jl. M.H. Thamrin No. 1")).toMatchObject({
      building: "Menara BCA Lt. 5",
      street: "Jl. M.H. Thamrin",
      house_number: "1",
    });
    expect(components("Apartemen Kalibata City Tower A")).toMatchObject({ building: "Apartemen Kalibata City" });
    expect(components("Perumahan Lima Puluh Kota Indah Blok E8 No. 2")).toMatchObject({ complex: "Perumahan Lima Puluh Kota Indah", block: "E8" });
    // Inside a region segment a building word is a name's (`Belakang Gedung` is a kelurahan).
    expect(regions("kel belakang gedung, kec pasar manna")).toEqual(["kel:belakang gedung", "kec:pasar manna"]);
    expect(parseAddress("kel belakang gedung").components.building).toBe(null);
  });

  it("reads dusun and hamlet words", () => {
    const p = parseAddress("Dusun Krajan RT 02 RW 01 Desa Sukamaju Kecamatan Cibadak Kabupaten Sukabumi");
    expect(p.components).toEqual({ ...EMPTY, dusun: "Krajan", rt: "02", rw: "01" });
    // The dusun is a region segment too: some villages are named `Dusun ...` (the resolver reads it so only).
    expect(regions("Dusun Krajan RT 02 RW 01 Desa Sukamaju Kecamatan Cibadak Kabupaten Sukabumi")).toEqual([
      "dusun:Krajan",
      "desa:Sukamaju",
      "kec:Cibadak",
      "kab:Sukabumi",
    ]);
    expect(regions("Dukuh, Kec. Delanggu")).toEqual(["-:Dukuh", "kec:Delanggu"]);
    expect(regions("Desa Ujong Gampong Kec. Simpang Tiga")).toEqual(["desa:Ujong Gampong", "kec:Simpang Tiga"]);
    expect(components("Dsn. Kulon, Ds. Mojo")).toMatchObject({ dusun: "Kulon" });
    // A hamlet word stays a region segment too: `Kampung Melayu` is a kelurahan in Jakarta.
    const kp = parseAddress("Kp. Melayu, Jatinegara, Jakarta Timur");
    expect(kp.components.dusun).toBe("Melayu");
    expect(kp.regions[0]).toMatchObject({ marker: "kampung", text: "Melayu", raw: "Kp. Melayu", level: null });
    expect(regions("Kp. Cibeureum RT 01/02 Desa Cikole")).toEqual(["kampung:Cibeureum", "desa:Cikole"]);
  });

  it("reads postal codes: bare, after the province, with a label, never a house number", () => {
    expect(components("Braga, Bandung 40111").postal_code).toBe("40111");
    expect(components("Bandung, 40111, Indonesia").postal_code).toBe("40111");
    expect(components("Braga Kode Pos 40111").postal_code).toBe("40111");
    expect(components("Braga kodepos: 40111").postal_code).toBe("40111");
    expect(components("Braga Kd. Pos 40111").postal_code).toBe("40111");
    expect(components("Jl. Merdeka No. 12345, Braga")).toMatchObject({ house_number: "12345", postal_code: null });
    expect(components("Jl. Merdeka RT 12345")).toMatchObject({ rt: "12345", postal_code: null });
    expect(regions("Bandung, 40111, Indonesia")).toEqual(["-:Bandung"]);
  });
});

describe("address parser: streets are never regions", () => {
  it("consumes the street up to its number, comma or marker", () => {
    expect(regions("Jl. Bandung No. 12, Sukun, Malang")).toEqual(["-:Sukun", "-:Malang"]);
    expect(regions("jl bandung no 12 sukun malang")).toEqual(["-:sukun malang"]);
    expect(regions("Jl. Sumatera 5 Gubeng Surabaya")).toEqual(["-:Gubeng Surabaya"]);
    expect(components("Jl. Sumatera 5 Gubeng Surabaya")).toMatchObject({ street: "Jl. Sumatera", house_number: "5" });
    expect(regions("Jalan Jawa Barat Kel. Citarum")).toEqual(["kel:Citarum"]);
    expect(regions("Gg. Bali II, Kel. Sukasari")).toEqual(["kel:Sukasari"]);
    expect(regions("Jln. Kalimantan RT 02 RW 03 Kec. Sumbersari Jember")).toEqual(["kec:Sumbersari Jember"]);
  });

  it("keeps Km, a gang and a second street word in the street", () => {
    const p = parseAddress("Jl. Kaliurang Km 5,5 Gg. Mawar No. 3, Sleman, DIY 55281");
    expect(p.components).toMatchObject({ street: "Jl. Kaliurang Km 5,5 Gg. Mawar", house_number: "3", postal_code: "55281" });
    expect(p.regions.map((r) => r.text)).toEqual(["Sleman", "DIY"]);
    expect(components("Jl. Raya Bogor Km. 26, Ciracas").street).toBe("Jl. Raya Bogor Km. 26");
    expect(components("Jl. Sultan Agung Gg. 3 No. 10").street).toBe("Jl. Sultan Agung Gg. 3");
    expect(components("Gg. Mawar, Jl. Kaliurang No. 2").street).toBe("Gg. Mawar, Jl. Kaliurang");
  });

  it("reads the word after a street word as the street's, even a number or a level word", () => {
    expect(components("Jl. 17 Agustus No. 5").street).toBe("Jl. 17 Agustus");
    expect(components("Jl. Kota Baru No. 1, Kel. Braga").street).toBe("Jl. Kota Baru");
    expect(regions("Jl. Kota Baru No. 1, Kel. Braga")).toEqual(["kel:Braga"]);
    expect(components("Jl. Desa Putera No. 2").street).toBe("Jl. Desa Putera");
    expect(components("Jl. Kampung Melayu Besar No. 9").street).toBe("Jl. Kampung Melayu Besar");
    expect(components("Gg. Ampana Kota No. 60 Ds. Bantuga")).toMatchObject({ street: "Gg. Ampana Kota", house_number: "60" });
  });

  it("keeps titles and initials inside the street", () => {
    expect(components("Jl. Ir. H. Juanda No. 1, Paledang, Bogor Tengah").street).toBe("Jl. Ir. H. Juanda");
    expect(components("Jl. Letjen S. Parman Kav. 28, Tanjung Duren Selatan").street).toBe("Jl. Letjen S. Parman");
    expect(components("Jl.M.H.Thamrin No.1").street).toBe("Jl.M.H.Thamrin");
  });

  it("says when a street may have swallowed a region (no comma, no number, no marker after it)", () => {
    expect(parseAddress("jl merdeka bandung").streetOpen).toBe(true);
    expect(parseAddress("Jl. Merdeka, Bandung").streetOpen).toBe(true);
    expect(parseAddress("Jl. Merdeka No. 3 Bandung").streetOpen).toBe(false);
    expect(parseAddress("Jl. Merdeka Kel. Braga").streetOpen).toBe(false);
  });

  it("with nothing but a street running to the end, offers its words after the name (after its last number) as a segment", () => {
    const p = parseAddress("jl. raya serang km 12 bitung jaya cikupa tangerang");
    expect(p.components.street).toBe("jl. raya serang km 12 bitung jaya cikupa tangerang");
    expect(p.regions.map((r) => [r.text, r.fromStreet])).toEqual([["bitung jaya cikupa tangerang", true]]);
    expect(parseAddress("jl merdeka bandung").regions.map((r) => r.words)).toEqual([["bandung"]]);
    // Other region words, or a street ended by a number or a comma: no tail.
    expect(parseAddress("Jl. Bandung No. 12 Sukun Malang").regions.every((r) => !r.fromStreet)).toBe(true);
    expect(parseAddress("Jl. Bandung, Malang").regions.map((r) => [r.text, r.fromStreet])).toEqual([["Malang", undefined]]);
    expect(parseAddress("Jl. Merdeka").regions).toEqual([]);
  });
});

describe("address parser: region segments", () => {
  it("reads every level word, abbreviated or not, any case", () => {
    expect(regions("Kel. Braga Kec. Sumur Bandung Kota Bandung Prov. Jawa Barat")).toEqual([
      "kel:Braga",
      "kec:Sumur Bandung",
      "kota:Bandung",
      "prov:Jawa Barat",
    ]);
    expect(regions("Kelurahan Braga, Kecamatan Sumur Bandung, Kotamadya Bandung, Provinsi Jawa Barat")).toEqual([
      "kel:Braga",
      "kec:Sumur Bandung",
      "kotamadya:Bandung",
      "prov:Jawa Barat",
    ]);
    expect(regions("Ds. Sukamaju Kec. Cibadak Kab. Sukabumi Propinsi Jawa Barat")).toEqual(["desa:Sukamaju", "kec:Cibadak", "kab:Sukabumi", "prov:Jawa Barat"]);
    expect(regions("desa sukamaju kec cibadak kab sukabumi prov jabar")).toEqual(["desa:sukamaju", "kec:cibadak", "kab:sukabumi", "prov:jabar"]);
    expect(regions("kel.braga kec.sumur bandung kota.bandung")).toEqual(["kel:braga", "kec:sumur bandung", "kota:bandung"]);
    expect(regions("Kodya Yogyakarta")).toEqual(["kotamadya:Yogyakarta"]);
    expect(regions("Distrik Abepura, Kota Jayapura")).toEqual(["kec:Abepura", "kota:Jayapura"]);
    expect(parseAddress("Kab. Garut").regions[0]).toMatchObject({ level: "kabupaten", marker: "kab", raw: "Kab. Garut" });
  });

  it("reads KTP capitals, with or without the form's labels", () => {
    const line = "JL. MAWAR NO. 5 RT 001 RW 002 KEL. CIDADAP KEC. CIDADAP KOTA BANDUNG JAWA BARAT";
    expect(components(line)).toEqual({ ...EMPTY, street: "JL. MAWAR", house_number: "5", rt: "001", rw: "002" });
    expect(regions(line)).toEqual(["kel:CIDADAP", "kec:CIDADAP", "kota:BANDUNG JAWA BARAT"]);
    const form = "Alamat : JL. MAWAR NO. 5\nRT/RW : 001/002\nKel/Desa : CIDADAP\nKecamatan : CIDADAP\nKab/Kota : BANDUNG";
    expect(components(form)).toEqual({ ...EMPTY, street: "JL. MAWAR", house_number: "5", rt: "001", rw: "002" });
    expect(regions(form)).toEqual(["kel/desa:CIDADAP", "kec:CIDADAP", "kab/kota:BANDUNG"]);
    expect(parseAddress(form).regions[0].level).toBe("kelurahan");
    expect(regions("DESA/KEL. SUKAMAJU")).toEqual(["kel/desa:SUKAMAJU"]);
  });

  it("reads any order, with or without commas", () => {
    expect(regions("Jawa Barat, Kota Bandung, Kec. Coblong, Kel. Dago, Jl. Ir. H. Juanda No. 10")).toEqual([
      "-:Jawa Barat",
      "kota:Bandung",
      "kec:Coblong",
      "kel:Dago",
    ]);
    expect(regions("bandung coblong dago")).toEqual(["-:bandung coblong dago"]);
    expect(regions("Menteng Jakarta Pusat 10310")).toEqual(["-:Menteng Jakarta Pusat"]);
  });

  it("reads Jakarta's administrative cities and a level word after the name", () => {
    expect(parseAddress("Kota Adm. Jakarta Selatan").regions[0]).toMatchObject({ marker: "kota", text: "Jakarta Selatan", raw: "Kota Adm. Jakarta Selatan" });
    expect(regions("Kota Administrasi Jakarta Timur")).toEqual(["kota:Jakarta Timur"]);
    expect(regions("Kab. Adm. Kepulauan Seribu")).toEqual(["kab:Kepulauan Seribu"]);
    // A level word after the name stays a word of it (`Menggala Kota` is a kelurahan; the resolver also reads `kota bandung`).
    expect(regions("Bandung Kota")).toEqual(["-:Bandung Kota"]);
    expect(regions("Kel. Menggala Kota, Kec. Menggala")).toEqual(["kel:Menggala Kota", "kec:Menggala"]);
  });

  it("keeps the level word with the text, for names that start with one", () => {
    const p = parseAddress("Desa Baru, Kec. Kota Jantho");
    expect(p.regions[0]).toMatchObject({ marker: "desa", text: "Baru", raw: "Desa Baru" });
    expect(p.regions[1]).toMatchObject({ marker: "kec", text: "Kota Jantho" });
    expect(parseAddress("Kota Baru, Kec. Keritang").regions[0]).toMatchObject({ marker: "kota", text: "Baru", raw: "Kota Baru" });
  });

  it("reads `Kota` inside a name written without a level word, or a hamlet's, as a word of it (issue 52)", () => {
    expect(regions("Simpang Kota Medan, Kec. Kelayang, Riau")).toEqual(["-:Simpang Kota Medan", "kec:Kelayang", "-:Riau"]);
    expect(regions("Pengalihan Keritang Kota Baru, Kec. Keritang")).toEqual(["-:Pengalihan Keritang Kota Baru", "kec:Keritang"]);
    expect(regions("Dsn. Kota Baru II, Kp. Simpang Kota Medan")).toEqual(["dusun:Kota Baru II", "kampung:Simpang Kota Medan"]);
    // After a street, a village's or a kecamatan's level word it still starts a kota, which says it follows other words of its part.
    const street = parseAddress("Jalan Lintas Kota Baru, Kec. Keritang");
    expect(street.components.street).toBe("Jalan Lintas");
    expect(street.regions[0]).toMatchObject({ marker: "kota", text: "Baru", afterWords: true });
    expect(parseAddress("Desa Aek Kota Batu, Kec. Na IX-X").regions[1]).toMatchObject({ marker: "kota", text: "Batu", afterWords: true });
    expect(parseAddress("Braga, Kota Bandung").regions[1].afterWords).toBeUndefined();
  });

  it("keeps numbers and roman numerals of village names, drops the country and phone numbers", () => {
    expect(regions("Desa Ramunia 1, Kec. Pantai Labu")).toEqual(["desa:Ramunia 1", "kec:Pantai Labu"]);
    expect(regions("Kel. Sukamaju II")).toEqual(["kel:Sukamaju II"]);
    expect(regions("Jambur Indonesia, Deli Serdang, Indonesia")).toEqual(["-:Jambur Indonesia", "-:Deli Serdang"]);
    expect(regions("Braga Bandung 081234567890")).toEqual(["-:Braga Bandung"]);
  });

  it("cuts at semicolons, new lines, bars and parentheses, not at a dash (names hold one)", () => {
    expect(regions("Braga; Sumur Bandung\nBandung | Jawa Barat")).toEqual(["-:Braga", "-:Sumur Bandung", "-:Bandung", "-:Jawa Barat"]);
    expect(regions("Braga (Sumur Bandung) - Bandung")).toEqual(["-:Braga", "-:Sumur Bandung", "-:Bandung"]);
    expect(regions("Desa Selok Awar - Awar - Lumajang")).toEqual(["desa:Selok Awar - Awar - Lumajang"]);
    expect(regions("Sei-Kera Hilir I")).toEqual(["-:Sei-Kera Hilir I"]);
  });

  it("normalises words: case, accents, edge punctuation, typographic apostrophes", () => {
    expect(parseAddress("KEL. CIKINI, Kec. Meñteng").regions.map((r) => r.words)).toEqual([["cikini"], ["menteng"]]);
    expect(parseAddress("Desa Ba\u2019u").regions[0].words).toEqual(["ba'u"]);
    // Punctuation between and after words: gone from `words`, still in `text` where `at` says (some names hold it).
    const spelled = (text: string) => {
      const r = parseAddress(text).regions[0];
      return { words: r.words, spelled: r.text.slice(r.at[0][0], r.at[r.at.length - 1][1]) };
    };
    expect(spelled("Ds. Papuyu III Sei. Pudak")).toEqual({ words: ["papuyu", "iii", "sei", "pudak"], spelled: "Papuyu III Sei. Pudak" });
    expect(spelled("KEL/DESA : PA' TERA")).toEqual({ words: ["pa", "tera"], spelled: "PA' TERA" });
    expect(spelled("Sa'dan Ballo Pasange', Kec. Sa'dan")).toEqual({ words: ["sa'dan", "ballo", "pasange"], spelled: "Sa'dan Ballo Pasange'" });
    expect(spelled("Kel. Kassi - Kassi, Kec. Rappocini")).toEqual({ words: ["kassi", "kassi"], spelled: "Kassi - Kassi" });
    expect(spelled("Barename/Luanggi")).toEqual({ words: ["barename", "luanggi"], spelled: "Barename/Luanggi" });
    expect(spelled("Ps.Baru Rantau")).toEqual({ words: ["ps", "baru", "rantau"], spelled: "Ps.Baru Rantau" });
    expect(parseAddress("Kel. Sei. Pudak").regions[0].at).toEqual([
      [0, 4],
      [5, 10],
    ]);
  });

  it("reads nothing from empty or marker-only text", () => {
    expect(parseAddress("")).toEqual({ components: EMPTY, regions: [], codes: [], streetOpen: false });
    expect(parseAddress(" , ; ").regions).toEqual([]);
    expect(parseAddress("Kec.").regions).toEqual([]);
    expect(parseAddress("Jl.").components.street).toBe(null);
  });

  it("reads region codes, dotted or a village's ten digits, and drops their labels; phone numbers and prices are no codes", () => {
    const p = parseAddress("Kode Wilayah: 32.73.01.1001, Braga, Kota Bandung 40111");
    expect(p.codes).toEqual([{ text: "32.73.01.1001", id: "32.73.01.1001" }]);
    expect(p.regions.map((r) => r.text)).toEqual(["Braga", "Bandung"]);
    expect(p.components.postal_code).toBe("40111");
    // ten digits may be a BPS code too: the service reads them so only when no edition holds 32.04.05.2001
    expect(parseAddress("DESA SUKAMAJU 3204052001").codes).toEqual([{ text: "3204052001", id: "32.04.05.2001", bps: "3204052001" }]);
    expect(parseAddress("DESA SUKAMAJU 3204052001").regions.map((r) => r.text)).toEqual(["SUKAMAJU"]);
    expect(parseAddress("Kec. Coblong 32.73.02, Kode Kemendagri 32.73").codes.map((c) => c.id)).toEqual(["32.73.02", "32.73"]);
    for (const text of ["Braga 081234567890", "Braga Rp 12.500", "Jl. Braga Km 12.50, Bandung", "Braga 40111", "Braga 327301", "Braga 0273190"]) {
      expect(parseAddress(text).codes, text).toEqual([]);
    }
    expect(parseAddress("1101012001 1101012002 1101012003 1101012004 1101012005").codes).toHaveLength(4);
  });

  it("reads a 7-digit number and ten digits that are no Kemendagri code as possible BPS codes, their labels dropped", () => {
    expect(parseAddress("Braga 3273010001").codes).toEqual([{ text: "3273010001", id: "3273010001", bps: "3273010001" }]);
    const p = parseAddress("Cicendo, Kode BPS 3273190, Kota Bandung");
    expect(p.codes).toEqual([{ text: "3273190", id: "3273190", bps: "3273190" }]);
    expect(p.regions.map((r) => r.text)).toEqual(["Cicendo", "Bandung"]);
    expect(parseAddress("Kode Wilayah: 32.73.01.1001").codes[0].bps).toBeUndefined();
  });
});

describe("address parser, step by step: tokenise, read labels, read components", () => {
  const walk = (text: string) => readLabels(text, tokenize(text));
  /** The segments the walk cut, as `[kind, marker, text, part, endedBy]`. */
  const cut = (text: string) => {
    const w = walk(text);
    return w.segments.map((s) => [s.kind, s.marker, text.slice(w.toks[s.from].start, w.toks[s.to - 1].end), s.part, s.endedBy]);
  };

  it("readLabels: a label's value goes to the components and ends the segment being read; the rest is cut at separators, markers and numbers", () => {
    const text = "Jl. Merdeka No. 5 RT 01/02, Kel. Braga Kode Pos 40111";
    expect(walk(text).components).toEqual({ ...EMPTY, house_number: "5", rt: "01", rw: "02", postal_code: "40111" });
    expect(cut(text)).toEqual([
      ["street", null, "Merdeka", 0, "number"],
      ["region", "kel", "Braga", 1, "number"],
    ]);
    expect(cut("Perum Griya Asri Blok C2 No. 5, Kp. Melayu, Gedung Sate Lt. 5")).toEqual([
      ["complex", null, "Griya Asri", 0, "number"],
      ["region", "kampung", "Melayu", 1, "sep"],
      ["building", null, "Sate Lt. 5", 2, "end"],
    ]);
  });

  it("readLabels: the word right after a marker is name text; only a postal code's label is read there", () => {
    expect(cut("Jl. Kota Baru No. 1")).toEqual([["street", null, "Kota Baru", 0, "number"]]);
    const postal = walk("Kel. Kode Pos 40111");
    expect(postal.components.postal_code).toBe("40111");
    expect(postal.segments).toEqual([]);
  });

  it("readLabels: a level word with no name after it stays in the segment before it; codes leave their labels; the country and phone numbers go", () => {
    expect(cut("Bandung Kota, Jawa Barat")).toEqual([
      ["region", null, "Bandung Kota", 0, "sep"],
      ["region", null, "Jawa Barat", 1, "end"],
    ]);
    const code = walk("Kode Wilayah: 32.73.01.1001, Braga");
    expect(code.codes).toEqual([{ text: "32.73.01.1001", id: "32.73.01.1001" }]);
    expect(cut("Kode Wilayah: 32.73.01.1001, Braga")).toEqual([["region", null, "Braga", 1, "end"]]);
    expect(cut("Alamat : Jl. Mawar, Indonesia")).toEqual([["street", null, "Mawar", 0, "sep"]]);
    expect(cut("Braga Bandung 081234567890")).toEqual([["region", null, "Braga Bandung", 0, "number"]]);
  });

  it("readComponents: a street, complex or building is a component with its word, a hamlet the dusun and a region, the labels' values kept", () => {
    const w = walk("Perum Griya Asri Blok C2 No. 5, Kp. Melayu, Gedung Sate Lt. 5");
    const before = structuredClone(w.components);
    const read = readComponents(w);
    expect(read.components).toEqual({ ...EMPTY, house_number: "5", block: "C2", complex: "Perum Griya Asri", building: "Gedung Sate Lt. 5", dusun: "Melayu" });
    expect(read.regions).toEqual([{ text: "Melayu", words: ["melayu"], at: [[0, 6]], marker: "kampung", level: null, raw: "Kp. Melayu", part: 1 }]);
    expect(read.streetOpen).toBe(false);
    expect(w.components).toEqual(before); // the walk is left as it was
  });

  it("readComponents: a street that runs to the end with no region after it offers its tail, and is open", () => {
    const read = readComponents(walk("jl merdeka bandung"));
    expect(read.components.street).toBe("jl merdeka bandung");
    expect(read.regions).toEqual([{ text: "bandung", words: ["bandung"], at: [[0, 7]], marker: null, level: null, raw: "bandung", part: 0, fromStreet: true }]);
    expect(read.streetOpen).toBe(true);
  });
});
