/**
 * Issue 37: a bulk job's chunks processed while D1, the account object and R2 fail (before acting,
 * or after acting with the answer lost), messages delivered twice and in any order, and consumers
 * that die half-way (a failure after some of a chunk's steps). The queue is played here: a failed
 * message is delivered again, a delivered one may come once more. Invariants after every schedule:
 * the job is done; every input row appears in the result exactly once, in input order; the rows
 * charged (usage) equal the rows done; the reservation is ended; the ledger has one entry for the job.
 * Some failed messages are given up on (the queue's retries spent): the cron's watchdog, run under
 * the same faults, re-sends their chunks and completes end steps that failed.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { AccountObject } from "../../src/account/object";
import { processChunk } from "../../src/jobs/consumer";
import { createJob, type JobMessage, jobResult } from "../../src/jobs/service";
import { STALL_MS, watchJobs } from "../../src/jobs/watchdog";
import { seeded } from "../../src/lib/random";
import { seedUserWithKey } from "../helpers";
import { FAULTS_TIMEOUT_MS, FaultPlan, faultyEnv, MIN_FAULTS } from "./inject";

const ROWS = 3_500; // four chunks

const stream = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(text));
      c.close();
    },
  });

async function run(seed: number) {
  const { userId, keyId } = await seedUserWithKey();
  const codes = Array.from({ length: ROWS }, (_, i) => `${["32.73", "11.01", "99.99", "3273091001"][i % 4]}`);
  // The job is made calmly, its messages kept here instead of sent to the real queue.
  const queued: JobMessage[] = [];
  const collecting = { ...env, JOB_QUEUE: { sendBatch: async (ms: { body: JobMessage }[]) => void queued.push(...ms.map((m) => m.body)) } } as unknown as Env;
  const job = await createJob(
    collecting,
    { userId, keyId, plan: "internal" },
    { kind: "convert", format: "csv", column: "code", body: stream(`code\n${codes.join("\n")}\n`) },
  );
  expect(queued).toHaveLength(4);

  const faults = new FaultPlan(seed, { rate: 0.2, targets: ["d1", "account", "r2"] });
  const faulty = faultyEnv(env, faults);
  const random = seeded(seed * 7919);
  const pending = [...queued];
  let deliveries = 0;
  let givenUp = 0;
  const drain = async () => {
    while (pending.length > 0) {
      if (++deliveries > 600) throw new Error(`seed ${seed}: the queue never drained`);
      const m = pending.splice(Math.floor(random() * pending.length), 1)[0];
      try {
        await processChunk(faulty, m);
        if (random() < 0.2) pending.push(m); // delivered once more
      } catch {
        if (random() < 0.15)
          givenUp++; // the queue gave up on it (its retries spent): only the watchdog can bring it back
        else pending.push(m); // the queue retries it
      }
    }
  };
  await drain();
  // The 5-minute cron's watchdog, under the same faults, until the job is done and its end steps
  // confirmed: each run a little more than STALL_MS later, its re-sent chunks delivered like the rest.
  const watching = { ...faulty, JOB_QUEUE: { sendBatch: async (ms: { body: JobMessage }[]) => void pending.push(...ms.map((m) => m.body)) } } as unknown as Env;
  let clock = Date.now();
  let watchRuns = 0;
  for (;;) {
    const now = await faults.calm(() =>
      env.DB.prepare("SELECT state, settled_at FROM jobs WHERE id = ?").bind(job.id).first<{ state: string; settled_at: number | null }>(),
    );
    if (now?.state === "done" && now.settled_at !== null) break;
    if (++watchRuns > 60) throw new Error(`seed ${seed}: the watchdog never brought the job to its end (${JSON.stringify(now)})`);
    clock += STALL_MS + 1;
    await watchJobs(watching, clock).catch(() => undefined); // a failed run is the next run's work
    await drain();
  }
  return faults.calm(async () => {
    const row = await env.DB.prepare("SELECT state, rows_done, chunks_done FROM jobs WHERE id = ?")
      .bind(job.id)
      .first<{ state: string; rows_done: number; chunks_done: number }>();
    const result = await new Response(await jobResult(env, userId, job.id, "jsonl")).text();
    const lines = result
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { row: number; input: string[] });
    const stub = env.ACCOUNT.get(env.ACCOUNT.idFromName(userId));
    const usage = (await stub.usage(new Date().toISOString().slice(0, 7))).filter((r) => r.endpoint === "/jobs/convert").reduce((n, r) => n + r.count, 0);
    const reservation = await runInDurableObject(
      stub,
      (o: AccountObject) => o.sql<{ ended: number; rows_done: number }>`SELECT ended, rows_done FROM jobs WHERE id = ${job.id}`[0],
    );
    await runInDurableObject(stub, (o: AccountObject) => o.flush());
    const ledger = await env.DB.prepare("SELECT count(*) AS n FROM credit_ledger WHERE ref = ?").bind(`job:${job.id}`).first<{ n: number }>();
    return { row, lines, usage, reservation, ledger: ledger?.n, injected: faults.injected, deliveries, givenUp, watchRuns };
  });
}

describe("a bulk job's chunks under faults", () => {
  it(
    `every row once and in order, charged rows = rows done, the reservation ended (at least ${MIN_FAULTS} faults)`,
    async () => {
      let injected = 0;
      let givenUp = 0;
      for (let seed = 301; injected < MIN_FAULTS; seed++) {
        const r = await run(seed);
        expect(r.row, `seed ${seed}`).toEqual({ state: "done", rows_done: ROWS, chunks_done: 4 });
        expect(
          r.lines.map((l) => l.row),
          `seed ${seed}: rows once, in order`,
        ).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
        expect(r.lines[ROWS - 1].input).toEqual(["3273091001"]);
        expect(r.usage, `seed ${seed}: charged rows = rows done`).toBe(ROWS);
        expect(r.reservation, `seed ${seed}: reservation`).toEqual({ ended: 1, rows_done: ROWS });
        expect(r.ledger, `seed ${seed}: one ledger entry`).toBe(1);
        injected += r.injected;
        givenUp += r.givenUp;
      }
      expect(givenUp, "some messages were given up on by the queue (the watchdog's case)").toBeGreaterThan(0);
      console.log(`bulk jobs: ${injected} faults injected, ${givenUp} messages given up on by the queue and re-sent by the watchdog`);
    },
    FAULTS_TIMEOUT_MS,
  );
});
