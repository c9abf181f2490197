/**
 * Address quality over the generated set (test/fixtures/address-set.json, 13 styles drawn from the
 * seed with a fixed random seed by `npm run address:set`, scripts/address-set.ts says how) and the
 * hand-checked real addresses (test/fixtures/address-real.json), through POST /wilayah/address in
 * batches of 100 as a client sends them. Prints the rate per style and the calibration of the
 * confidence (scripts/address-rates.ts) and fails below the floors: kelurahan right as the
 * top answer (where the text determines one village) at least 97% on complete addresses, 92% with a
 * typo, 95% with street traps, 90% with the village and city only; kabupaten right 99.5% where the
 * text names one; of the answers at confidence >= 0.9 at least 99% right; of those below 0.5, the
 * right village the answer or an alternative at least 80%.
 */
import { beforeAll, expect, it } from "vitest";
import { belowFloors, formatRates, type RatedAnswer, rateAnswers } from "../../scripts/address-rates";
import type { RealAddress } from "../../scripts/address-real";
import type { AddressCase } from "../../scripts/address-set";
import {
  calibrate,
  formatCalibration,
  formatWorldRates,
  rateWorld,
  type WorldAnswer,
  type WorldCase,
  worldGoalsMissed,
} from "../../scripts/address-world-rates";
import real from "../fixtures/address-real.json";
import set from "../fixtures/address-set.json";
import world from "../fixtures/address-world.json";
import heldout from "../fixtures/address-world-heldout.json";
import heldoutHard from "../fixtures/address-world-heldout-hard.json";
import { call, json, seedUserWithKey } from "../helpers";

let key: string;
beforeAll(async () => {
  key = (await seedUserWithKey()).secret;
});

async function resolveAll(texts: string[]): Promise<RatedAnswer[]> {
  const out: RatedAnswer[] = [];
  for (let i = 0; i < texts.length; i += 100) {
    const res = await call("/api/v1/wilayah/address", { key, method: "POST", json: { addresses: texts.slice(i, i + 100) } });
    expect(res.status).toBe(200);
    out.push(...(await json<{ data: RatedAnswer[] }>(res)).data);
  }
  return out;
}

it("meets the issue's floors per style, for the kabupaten and for the confidence", { timeout: 300_000 }, async () => {
  const cases = set as AddressCase[];
  const realList = real as RealAddress[];
  expect(cases.length).toBeGreaterThanOrEqual(1000);
  const rates = rateAnswers(cases, await resolveAll(cases.map((c) => c.text)), realList, await resolveAll(realList.map((a) => a.text)));
  console.log(`address quality (${cases.length} generated addresses, ${realList.length} real ones):\n${formatRates(rates)}`);
  expect([...rates.styles.keys()].length).toBeGreaterThanOrEqual(8);
  expect(belowFloors(rates)).toEqual([]);
  // The real addresses have no floor in the issue; they are printed, and most must be right.
  expect(rates.real.right / rates.real.n).toBeGreaterThanOrEqual(0.9);
});

it("meets the goals on real writing (development set), reports the held-out set and its harder variant", { timeout: 600_000 }, async () => {
  const dev = world as WorldCase[];
  const devRates = rateWorld(dev, (await resolveAll(dev.map((c) => c.text))) as unknown as WorldAnswer[]);
  console.log(formatWorldRates(devRates, `real-world addresses, development set (${dev.length})`));
  expect(worldGoalsMissed(devRates)).toEqual([]);
  // Held out: never tuned on; its figures go to docs/api.md. The hard goal holds there too: no answer outside a named region.
  const held = heldout as WorldCase[];
  const heldAnswers = (await resolveAll(held.map((c) => c.text))) as unknown as WorldAnswer[];
  const heldRates = rateWorld(held, heldAnswers);
  console.log(formatWorldRates(heldRates, `real-world addresses, held-out set (${held.length})`));
  expect(heldRates.groups.get("all")?.outside).toBe(0);
  // Its harder variant keeps the schools whose written kecamatan is not their point's (issue 52):
  // never an answer outside a named region there either; the calibration of docs/api.md, through HTTP.
  const hard = heldoutHard as WorldCase[];
  const hardAnswers = (await resolveAll(hard.map((c) => c.text))) as unknown as WorldAnswer[];
  const hardRates = rateWorld(hard, hardAnswers);
  console.log(formatWorldRates(hardRates, `real-world addresses, held-out harder variant (${hard.length})`));
  expect(hardRates.groups.get("all")?.outside).toBe(0);
  console.log(
    formatCalibration([
      { title: `held-out set (${held.length})`, bands: calibrate(held, heldAnswers) },
      { title: `harder variant (${hard.length})`, bands: calibrate(hard, hardAnswers) },
    ]),
  );
});
