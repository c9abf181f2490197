/**
 * The hand-written list of real addresses (test/fixtures/address-real.json) and its check against
 * the seed (run by scripts/address-set.ts and its test).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { normalizeSearchText } from "../src/wilayah/normalize.ts";
import { root, SEED_DIR } from "./lib.ts";
import { buildSeed } from "./seed/build.ts";

export type RealAddress = {
  name: string;
  text: string;
  kelurahan_id: string;
  kecamatan_id: string;
  kabupaten_id: string;
  /** The postal code the address gives, and the seed's for that village where they differ. */
  note?: string;
};

type Seed = Awaited<ReturnType<typeof buildSeed>>;

/**
 * Checks each real address against the seed: the ids exist and are active, the village is in the
 * kecamatan, the kecamatan in the kabupaten, a postal code in the text is the village's in the seed
 * (the list gives one only where it is), and the text holds the village's and the kecamatan's names
 * (as the seed spells them, case and spaces ignored) unless the entry's note explains why not.
 * The addresses are the well-known published ones of each place, written from memory (no network
 * here): the seed check is what vouches for the codes, not the memory.
 */
export async function checkRealAddresses(list: RealAddress[], built?: Seed): Promise<string[]> {
  const { rows } = built ?? (await buildSeed(SEED_DIR));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const flat = (s: string) => normalizeSearchText(s).replace(/[^a-z0-9]/g, "");
  const problems: string[] = [];
  for (const a of list) {
    const v = byId.get(a.kelurahan_id);
    const k = byId.get(a.kecamatan_id);
    const kab = byId.get(a.kabupaten_id);
    if (v?.isActive !== 1 || v.level !== "kelurahan") problems.push(`${a.name}: ${a.kelurahan_id} is no active kelurahan`);
    else if (v.parentId !== a.kecamatan_id) problems.push(`${a.name}: ${v.name} is in ${v.parentId}, not ${a.kecamatan_id}`);
    if (!k || k.parentId !== a.kabupaten_id) problems.push(`${a.name}: kecamatan ${a.kecamatan_id} is not in ${a.kabupaten_id}`);
    if (!kab) problems.push(`${a.name}: no kabupaten ${a.kabupaten_id}`);
    const postal = /\b[1-9]\d{4}\b/.exec(a.text)?.[0];
    if (v && postal && postal !== v.postalCode) problems.push(`${a.name}: postal code ${postal} is not the seed's ${v.postalCode} for ${v.name}`);
    if (v && k && !a.note) {
      if (!flat(a.text).includes(flat(v.name))) problems.push(`${a.name}: the text does not name ${v.name}`);
      if (!flat(a.text).includes(flat(k.name))) problems.push(`${a.name}: the text does not name kecamatan ${k.name}`);
    }
  }
  return problems;
}

/** Checks test/fixtures/address-real.json (checkRealAddresses): throws on a problem, else says what was checked. */
export async function checkRealAddressFile(built?: Seed): Promise<string> {
  const real = JSON.parse(readFileSync(join(root, "test", "fixtures", "address-real.json"), "utf8")) as RealAddress[];
  const problems = await checkRealAddresses(real, built);
  if (problems.length) throw new Error(`test/fixtures/address-real.json:\n  ${problems.join("\n  ")}`);
  return `test/fixtures/address-real.json: ${real.length} real addresses, every code checked against the seed`;
}
