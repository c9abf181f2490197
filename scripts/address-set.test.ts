import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { builtSeed } from "../test/node/built-seed.ts";
import { checkRealAddresses, type RealAddress } from "./address-real.ts";
import { type AddressCase, buildAddressSet } from "./address-set.ts";
import { root } from "./lib.ts";

const committed = JSON.parse(readFileSync(join(root, "test", "fixtures", "address-set.json"), "utf8")) as AddressCase[];
const real = JSON.parse(readFileSync(join(root, "test", "fixtures", "address-real.json"), "utf8")) as RealAddress[];

describe("address quality set", () => {
  let built: Awaited<ReturnType<typeof builtSeed>>;
  beforeAll(async () => {
    built = await builtSeed();
  }, 300_000); // the whole seed build when no other suite has kept it (test/node/built-seed.ts): about 30 s alone, minutes on a loaded machine

  it("is what the generator writes from the seed (regenerate: npm run address:set)", async () => {
    expect(await buildAddressSet(undefined, built)).toEqual(committed);
  }, 60_000);

  it("has at least 1,000 addresses in at least eight styles, each with its expected codes", () => {
    expect(committed.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(committed.map((c) => c.style)).size).toBeGreaterThanOrEqual(8);
    for (const c of committed) {
      expect(c.kelurahan_id).toMatch(/^\d{2}\.\d{2}\.\d{2}\.\d{4}$/);
      expect(c.kelurahan_id.startsWith(`${c.kabupaten_id}.`)).toBe(true);
    }
  });

  it("holds real addresses whose codes agree with the seed", async () => {
    expect(real.length).toBeGreaterThanOrEqual(20);
    expect(await checkRealAddresses(real, built)).toEqual([]);
  }, 60_000);
});
