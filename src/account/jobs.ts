/**
 * Bulk jobs' billing, the isolate's side: a job's rows (one call each) are reserved from the quota
 * and credits when it is accepted, charged per chunk as rows are done (once per chunk), and what
 * was not used goes back when it ends. The account object decides (object.ts: reserveJob,
 * chargeJobRows, endJob); the ledger gets one entry per job.
 */
import type { Principal } from "../keys/service";
import { ApiError } from "../lib/errors";
import { accountObject, refusal, spendLimitReached } from "./admission";

/**
 * Reserves `rows` calls for a job, whole, or throws 402 QUOTA_EXCEEDED or SPEND_LIMIT_REACHED (or the
 * key's or account's refusal). The request's rate was counted by the gate, before the upload was read (src/gate).
 */
export async function reserveJobRows(env: Env, principal: Principal, job: { id: string; endpoint: string; rows: number }): Promise<{ credits: number }> {
  const answer = await (await accountObject(env, principal.userId)).reserveJob({
    jobId: job.id,
    keyId: principal.keyId,
    endpoint: job.endpoint,
    rows: job.rows,
  });
  if (answer.ok) return { credits: answer.credits };
  if (answer.reason === "spend_limit") throw spendLimitReached(answer.limit ?? 0, `This job of ${job.rows.toLocaleString("en")} rows`);
  if (answer.reason) throw refusal(answer.reason);
  throw new ApiError(
    "QUOTA_EXCEEDED",
    `This job is ${job.rows.toLocaleString("en")} rows (one call each): more than what is left of your plan's monthly quota and your ${(answer.available ?? 0).toLocaleString("en")} credits can cover; nothing was charged. Top up, subscribe to a larger plan, or send a smaller file.`,
  );
}

/** Charges a chunk's rows, once per chunk; `charged: false` when the job has ended (its rows are then not kept). */
export async function chargeJobChunk(env: Env, userId: string, c: { jobId: string; chunk: number; rows: number }): Promise<{ charged: boolean }> {
  return (await accountObject(env, userId)).chargeJobRows(c);
}

/** Ends a job's reservation: what it did not use goes back. Safe to repeat. */
export async function endJobRows(env: Env, userId: string, jobId: string): Promise<void> {
  await (await accountObject(env, userId)).endJob({ jobId });
}

/** Forgets a job past its keeping days; false while its ledger entry is not written yet (the prune tries again later). */
export async function forgetJobRows(env: Env, userId: string, jobId: string): Promise<boolean> {
  return (await accountObject(env, userId)).forgetJob({ jobId });
}
