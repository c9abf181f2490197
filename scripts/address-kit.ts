/**
 * What the quality set's address styles are drawn with (scripts/address-set.ts): the seed's regions
 * indexed (parents, children, villages by name), how many villages fit what a text names, and the
 * random pieces of an address (street, house number, the written forms of a kabupaten/kota or a
 * provinsi). Building it draws nothing: every random draw happens when a style calls these, in the
 * order it calls them, so the set stays the same for the same seed.
 */
import { normalizeSearchText } from "../src/wilayah/normalize.ts";
import { nameWords } from "../src/wilayah/search/plan.ts";
import { STREETS } from "./address-words.ts";
import { SEED_DIR } from "./lib.ts";
import type { buildSeed } from "./seed/build.ts";
import { loadAliases } from "./seed/search-index.ts";

type Seed = Awaited<ReturnType<typeof buildSeed>>;
export type SeedRow = Seed["rows"][number];

/** A value the seed guarantees (a parent of an active region, a code drawn from a list that has it). */
export function must<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`address set: no ${what}`);
  return value;
}

export function addressKit(rows: SeedRow[], random: () => number) {
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)];
  const chance = (p: number) => random() < p;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const pad = (n: number, width: number) => String(n).padStart(width, "0");

  const byId = new Map(rows.map((r) => [r.id, r]));
  const active = rows.filter((r) => r.isActive === 1);
  const key = (s: string) => normalizeSearchText(s);
  const villages = active.filter((r) => r.level === "kelurahan" && !/[,();"]/.test(r.name));
  const childrenOf = new Map<string, SeedRow[]>();
  for (const r of active) if (r.parentId) childrenOf.set(r.parentId, [...(childrenOf.get(r.parentId) ?? []), r]);
  const byName = new Map<string, SeedRow[]>();
  for (const v of active.filter((r) => r.level === "kelurahan")) byName.set(key(v.name), [...(byName.get(key(v.name)) ?? []), v]);
  /**
   * How many active villages fit what a text names: the village's name, and where given the
   * kecamatan's name, the kabupaten (by id when written with its kind, by bare name otherwise: a
   * bare `Madiun` fits Kota and Kabupaten Madiun) and the postal code.
   */
  const fits = (name: string, given: { kec?: string; kabId?: string; kabBare?: string; postal?: string }) =>
    (byName.get(key(name)) ?? []).filter((v) => {
      const kec = must(byId.get(must(v.parentId, "parent")), "kecamatan");
      const kab = must(byId.get(must(kec.parentId, "parent")), "kabupaten");
      return (
        (given.kec === undefined || key(kec.name) === key(given.kec)) &&
        (given.kabId === undefined || kab.id === given.kabId) &&
        (given.kabBare === undefined || key(kab.altName) === key(given.kabBare)) &&
        (given.postal === undefined || v.postalCode === given.postal)
      );
    }).length;
  const vocab = new Set(rows.flatMap((r) => [r.name, r.altName, ...r.aliases].map(key).flatMap(nameWords)));
  const aliases = loadAliases(SEED_DIR, new Set(byId.keys()));
  const shortOf = (id: string) => aliases.find((a) => a.id === id && a.kind === "short")?.alias;
  const provinces = active.filter((r) => r.level === "provinsi");
  const kabupatens = active.filter((r) => r.level === "kabupaten");

  const parents = (v: SeedRow) => {
    const kec = must(byId.get(must(v.parentId, "parent")), "kecamatan");
    const kab = must(byId.get(must(kec.parentId, "parent")), "kabupaten");
    const prov = must(byId.get(must(kab.parentId, "parent")), "provinsi");
    return { kec, kab, prov };
  };
  const isDesa = (v: SeedRow) => v.id.split(".")[3].startsWith("2");
  const villageWord = (v: SeedRow) => (isDesa(v) ? pick(["Desa", "Ds."]) : pick(["Kel.", "Kelurahan"]));
  const kabForm = (kab: SeedRow, form: "name" | "abbrev" | "bare") => {
    if (form === "name") return kab.name;
    if (form === "bare") return kab.altName;
    const adm = /Administrasi/.test(kab.name) ? "Adm. " : "";
    return kab.type === "kota" ? `Kota ${adm}${kab.altName}` : `Kab. ${adm}${kab.altName}`;
  };
  const provForm = (prov: SeedRow) => (chance(0.5) ? prov.name : prov.altName);
  const street = () => `${pick(["Jl.", "Jl.", "Jalan", "Jln."])} ${pick(STREETS)}`;
  const houseNo = () => String(int(1, 180)) + (chance(0.1) ? pick(["A", "B", "C"]) : "");
  /** A complete address: the village, its kecamatan and its kabupaten (counted by bare name: the strictest reading). */
  const completeDetermined = (v: SeedRow, name = v.name) => {
    const { kec, kab } = parents(v);
    return fits(name, { kec: kec.name, kabBare: kab.altName }) === 1;
  };

  return {
    pick,
    chance,
    int,
    pad,
    byId,
    active,
    key,
    villages,
    childrenOf,
    byName,
    fits,
    vocab,
    aliases,
    shortOf,
    provinces,
    kabupatens,
    parents,
    isDesa,
    villageWord,
    kabForm,
    provForm,
    street,
    houseNo,
    completeDetermined,
    random,
  };
}
