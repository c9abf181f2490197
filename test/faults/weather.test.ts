/**
 * Issue 27, the BMKG calls (weather and the latest earthquake) while BMKG fails (refused, timing out,
 * a gateway's 502, a request sent twice) and KV, their shared cache, fails too. KV is only a cache:
 * an answer is fresh, the last good copy marked stale, or BMKG's failure (502 UPSTREAM_ERROR, 504
 * UPSTREAM_TIMEOUT), never a 503 or 500 because the cache failed. Invariant after every schedule: the
 * account's usage equals the calls answered 200 (a failed call is given back).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { currentMonth, monthUsage } from "../../src/account/usage";
import { forecastBody, quakeBody } from "../fixtures/bmkg";
import { json, seedUserWithKey } from "../helpers";
import { callWith, drain, FAULTS_TIMEOUT_MS, FaultPlan, faultyEnv, faultyFetch, MIN_FAULTS } from "./inject";

const CALLS = 30;

/** BMKG as the fixture plays it. */
const bmkg = async (request: Request) => {
  const url = new URL(request.url);
  return url.hostname === "api.bmkg.go.id" ? Response.json(forecastBody(url.searchParams.get("adm4") ?? "")) : Response.json(quakeBody);
};

async function run(seed: number, villages: string[]) {
  const { userId, secret } = await seedUserWithKey();
  const faults = new FaultPlan(seed, { rate: 0.3, targets: ["kv", "fetch"] });
  faultyFetch(faults, bmkg);
  const faulty = faultyEnv(env, faults);
  const answers: Record<string, number> = {};
  let ok = 0;
  for (let i = 0; i < CALLS; i++) {
    // The earthquake is always read through KV; forecasts of villages not asked before in this isolate too.
    const path = i % 3 === 0 ? "/api/v1/gempa/terkini" : `/api/v1/cuaca?adm4=${villages[(seed * CALLS + i) % villages.length]}`;
    const res = await callWith(faulty, path, { key: secret });
    const body = await json(res);
    const label = res.status === 200 ? `200${body.data.stale ? " stale" : ""}` : `${res.status} ${body.error.code}`;
    answers[label] = (answers[label] ?? 0) + 1;
    if (res.status === 200) {
      ok++;
      continue;
    }
    expect(["502 UPSTREAM_ERROR", "504 UPSTREAM_TIMEOUT"], `seed ${seed} ${path}: ${JSON.stringify(body)}`).toContain(label);
    expect(body.error.request_id).toBe(res.headers.get("x-request-id"));
  }
  const usage = await faults.calm(async () => {
    await drain(userId);
    return monthUsage(env, userId, currentMonth());
  });
  expect(usage.total, `seed ${seed}: usage = calls answered 200`).toBe(ok);
  vi.restoreAllMocks();
  return { injected: faults.injected, kv: [...faults.byOperation].filter(([op]) => op.startsWith("kv.")).reduce((n, [, c]) => n + c, 0), answers };
}

describe("weather and earthquakes while BMKG and KV fail", () => {
  it(
    `fresh, stale or BMKG's own failure, never a 503 for a failing cache; usage = calls served (at least ${MIN_FAULTS} faults)`,
    async () => {
      const villages = (await env.DB.prepare("SELECT id FROM kelurahan WHERE id LIKE '32.73.%' ORDER BY id LIMIT 400").all<{ id: string }>()).results.map(
        (r) => r.id,
      );
      let injected = 0;
      let kv = 0;
      let schedules = 0;
      const answers: Record<string, number> = {};
      for (let seed = 1; injected < MIN_FAULTS; seed++, schedules++) {
        const r = await run(seed, villages);
        injected += r.injected;
        kv += r.kv;
        for (const [k, n] of Object.entries(r.answers)) answers[k] = (answers[k] ?? 0) + n;
      }
      console.log(`weather: ${injected} faults injected (${kv} of KV) over ${schedules} schedules; answers ${JSON.stringify(answers)}`);
      expect(kv).toBeGreaterThan(0);
      expect(answers["504 UPSTREAM_TIMEOUT"]).toBeGreaterThan(0);
    },
    FAULTS_TIMEOUT_MS,
  );
});
