/**
 * The account object's flush to D1: one batch (one transaction) with the changed counts (absolute,
 * so repeating a flush changes nothing), each key's last use, one aggregate ledger debit for the
 * credits spent since the last flush, and each ended job's one entry. The debit is written under a
 * ref decided before the write, so a retried flush can neither lose nor double it. Part of the
 * object (object.ts).
 */
import { batch, primaryDb } from "../db/client";
import { guardedEnv } from "../db/guard";
import { touchLastUsed } from "../keys/queries";
import { ledgerReasons } from "./ledger-reasons";
import { appendLedgerOnce, upsertDailyCount } from "./queries";
import type { AccountStore } from "./store";

/** Writes what the store has not written to D1 yet; true when a ledger entry was written (the cached balance is then stale). */
export async function flushToD1(env: Env, userId: string, store: AccountStore): Promise<boolean> {
  const { counts, lastUse } = store.unflushed();
  // The debit of this flush is fixed (amount and ref) before writing, so a retry writes the same row.
  // A negative pending debit (credits given back after a flush) is written as a positive entry.
  if (!store.state.flushDebit && store.state.pendingDebit !== 0) {
    store.setState({ flushDebit: { amount: store.state.pendingDebit, ref: `usage:${userId}:${crypto.randomUUID()}` } });
  }
  const debit = store.state.flushDebit;
  const jobs = store.unwrittenJobs();
  if (counts.length === 0 && lastUse.length === 0 && !debit && jobs.length === 0) return false;
  const db = primaryDb(guardedEnv(env));
  const now = Date.now();
  // Each table is written by its owner's query.
  await batch(db, [
    ...counts.map((r) => upsertDailyCount(db, { userId, keyId: r.key_id, endpoint: r.endpoint, day: r.day, count: r.count })),
    ...lastUse.map((u) => touchLastUsed(db, u.key_id, u.at, u.origin)),
    ...(debit
      ? [
          appendLedgerOnce(db, {
            userId,
            amount: -debit.amount,
            reason: ledgerReasons.usage(debit.amount),
            ref: debit.ref,
            createdAt: now,
          }),
        ]
      : []),
    // Each job its one entry, under the job's ref: written once however often the flush runs.
    ...jobs.map((j) =>
      appendLedgerOnce(db, {
        userId,
        amount: -j.creditsSpent,
        reason: ledgerReasons.job(j.id, j.rowsDone, j.creditsSpent),
        ref: `job:${j.id}`,
        createdAt: now,
      }),
    ),
  ]);
  // Calls counted during the batch stay dirty for the next flush.
  store.flushed(counts);
  for (const j of jobs) store.setJob({ ...j, written: true });
  if (debit) store.setState({ pendingDebit: store.state.pendingDebit - debit.amount, flushDebit: null });
  return Boolean(debit) || jobs.length > 0;
}
