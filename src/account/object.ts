import { Agent } from "agents";
import { findUserById } from "../auth/queries";
import { batch, primaryDb } from "../db/client";
import { guardedEnv } from "../db/guard";
import { touchLastUsed } from "../keys/queries";
import { utcDay } from "../lib/time";
import { ledgerReasons } from "./ledger-reasons";
import { appendLedgerOnce, findPlan, ledgerBalance, upsertDailyCount } from "./queries";
import { creditsBack, leaseSize, priceCalls, priceJobRows } from "./rules";
import { AccountStore, type Counted, type LeaseCounts, type MonthUsage } from "./store";

export type { Counted, LeaseCounts, MonthUsage } from "./store";

/** Seconds between a first unflushed call and the flush to D1. */
const FLUSH_DELAY_SECONDS = 60;
/** How long the plan and the D1 credit balance are trusted before being read again. */
const PLAN_TTL_MS = 60_000;
const BALANCE_TTL_MS = 5_000;
/** How long an isolate may admit calls under a lease. */
export const LEASE_MS = 1_000;
/** How long tickets are kept for exactly-once give-backs and settles (a lease lasts 1 s, a retry seconds). */
const TICKET_MS = 10 * 60_000;
/** How long an unsettled lease keeps its reservation (its isolate may have gone): then it ends uncounted. */
const LEASE_GRACE_MS = 30_000;
/**
 * How long the object remembers a revoked key. Past it no cache anywhere can still call the key
 * valid (KV's cached lookups live 10 minutes and are distrusted for 15 after a revocation; isolates
 * keep theirs 10 seconds), so the database's answer alone refuses it.
 */
const REVOKED_MEMORY_MS = 60 * 60 * 1000;

/** `revoked`: the account's keys revoked lately; the isolate refuses them under the lease as the object would. */
export type Lease = { id: string; calls: number; ms: number; revoked: string[] };
/**
 * `credits`: how many credits the admission spent (present when `charged`). Refused: beyond quota
 * and credits, or (`reason`) the key was revoked or the account suspended.
 */
/** A job's reservation: `credits` held beside its free rows. Refused: not enough quota and credits (`available`: the credits it could have), or the key revoked, the account suspended. */
export type JobAdmission = { ok: true; credits: number } | { ok: false; available?: number; reason?: "revoked" | "suspended" };

export type Admission = { ok: true; charged: boolean; credits?: number; day: string; lease?: Lease } | { ok: false; reason?: "revoked" | "suspended" };

/**
 * The per-account Durable Object, named by the user id (README.md in this folder: the glossary and
 * the paths of a call). A Durable Object handles one event at a time, so its counts are exact under
 * any concurrency. It extends the `agents` SDK's Agent for three things we would otherwise write:
 * the `sql` template over its SQLite, `schedule` (the flush alarm, kept across restarts) and
 * addressing by name.
 *
 * - `admit`: every data call (or a batch's calls, whole or not at all) asks before it is served:
 *   free within the quota, credits beyond it (rules.ts), refused without.
 * - Leases: an admission with plenty of quota left also grants a lease, reserving its calls until
 *   `settle` reports what was served under it.
 * - `giveBack`: calls not served (and their credits) are uncounted, once per ticket.
 * - `flush` (alarm, FLUSH_DELAY_SECONDS after the first change): one D1 batch with the changed
 *   counts (absolute, so repeating a flush changes nothing), each key's last use, and one aggregate
 *   ledger debit for the credits spent since the last flush, written under a ref decided before
 *   the write, so a retried flush can neither lose nor double a debit.
 */
export class AccountObject extends Agent<Env> {
  #storeOpened: AccountStore | undefined;
  #plan: { quota: number; suspended: boolean; at: number } | undefined;
  #balance: { value: number; at: number } | undefined;
  /** Revoked key id -> when (ms), mirrored from storage. */
  #revoked: Map<string, number> | undefined;
  /** Calls counted this month, kept in memory (read again from storage after a give-back or settle). */
  #month: { month: string; used: number } | undefined;
  /**
   * Bumped by `refresh` and by a flush's debit: a D1 read started before it answers with values older
   * than what the object now knows, so its answer is dropped instead of cached.
   */
  #generation = 0;
  /** The plan read under way, shared by every admission that needs it (one D1 read at a time). */
  #planLoad: Promise<void> | undefined;
  #balanceLoad: Promise<void> | undefined;

  get #store(): AccountStore {
    this.#storeOpened ??= new AccountStore(this.sql.bind(this));
    return this.#storeOpened;
  }

  #monthUsed(month: string): number {
    if (this.#month?.month !== month) this.#month = { month, used: this.#store.monthTotal(month) };
    return this.#month.used;
  }

  /** The plan's quota and whether the account is suspended, if known and less than a minute old. */
  #account(now: number): { quota: number; suspended: boolean } | undefined {
    return this.#plan && now - this.#plan.at <= PLAN_TTL_MS ? this.#plan : undefined;
  }

  /** Reads plan and status again (after `refresh`, or a minute later); a read overtaken by `refresh` is dropped. */
  #loadAccount(now: number): Promise<void> {
    this.#planLoad ??= (async () => {
      const generation = this.#generation;
      try {
        const db = primaryDb(guardedEnv(this.env));
        const user = await findUserById(db, this.name);
        const plan = user ? await findPlan(db, user.plan) : undefined;
        if (generation === this.#generation) this.#plan = { quota: plan?.monthlyQuota ?? 0, suspended: user?.status === "suspended", at: now };
      } finally {
        this.#planLoad = undefined;
      }
    })();
    return this.#planLoad;
  }

  /** The D1 credit balance, if read less than BALANCE_TTL_MS ago (or since `since`). */
  #ledgerBalance(now: number, since?: number): number | undefined {
    const b = this.#balance;
    return b && now - b.at <= BALANCE_TTL_MS && (since === undefined || b.at >= since) ? b.value : undefined;
  }

  /** Reads the D1 credit balance again; a read overtaken by `refresh` or a flush's debit is dropped. */
  #loadBalance(now: number): Promise<void> {
    this.#balanceLoad ??= (async () => {
      const generation = this.#generation;
      try {
        const value = await ledgerBalance(primaryDb(guardedEnv(this.env)), this.name);
        if (generation === this.#generation) this.#balance = { value, at: now };
      } finally {
        this.#balanceLoad = undefined;
      }
    })();
    return this.#balanceLoad;
  }

  /** The keys revoked within REVOKED_MEMORY_MS (older ones are forgotten here). */
  #recentlyRevoked(now: number): Map<string, number> {
    this.#revoked ??= this.#store.revoked();
    for (const [id, at] of this.#revoked) {
      if (at > now - REVOKED_MEMORY_MS) continue;
      this.#revoked.delete(id);
      this.#store.deleteRevoked(id);
    }
    return this.#revoked;
  }

  /**
   * Keys just revoked: refused by every admission from now on, and named in every lease granted
   * from now on, so no isolate serves them past the leases it already holds (at most LEASE_MS).
   */
  async revokeKeys({ keyIds, now = Date.now() }: { keyIds: string[]; now?: number }): Promise<void> {
    const revoked = this.#recentlyRevoked(now);
    for (const id of keyIds) {
      this.#store.addRevoked(id, now);
      revoked.set(id, now);
    }
  }

  /** Calls reserved by unsettled leases; leases past their grace end here, uncounted. */
  #leaseReserved(now: number): number {
    for (const gone of this.#store.expiredLeases(now)) this.#endLease(gone.id, gone.calls);
    return this.#store.reservedCalls();
  }

  /** A lease is over with `unused` calls not served: credits its reservation made others spend come back. */
  #endLease(id: string, unused: number) {
    this.#store.deleteLease(id);
    const { owedToReservations, pendingDebit } = this.#store.state;
    const back = creditsBack(unused, owedToReservations);
    if (back > 0) this.#store.setState({ owedToReservations: owedToReservations - back, pendingDebit: pendingDebit - back });
  }

  /**
   * What `calls` more calls cost now: free within the quota (less reservations), credits beyond.
   * Awaits D1 only to learn the plan, status and (when credits are needed) the balance, then decides
   * and runs `act` on the decision in the same synchronous stretch: other requests enter the object
   * while one waits on D1 (many may wait on the same read), so the counts must change before any of
   * them decides again, and after any wait everything is read again.
   * Refused: the key revoked, the account suspended, or not enough credits (`available`: how many
   * there are), decided on a balance read after the first refusal (a payment may have landed).
   */
  async #price<T>(
    keyId: string,
    calls: number,
    now: number,
    act: (d: { credits: number; owed: number; quota: number; used: number; reserved: number }) => T,
  ): Promise<{ ok: true; value: T } | { ok: false; reason?: "revoked" | "suspended"; available?: number }> {
    let balanceSince: number | undefined;
    for (;;) {
      if (this.#recentlyRevoked(now).has(keyId)) return { ok: false, reason: "revoked" };
      const account = this.#account(now);
      if (!account) {
        await this.#loadAccount(now);
        continue;
      }
      if (account.suspended) return { ok: false, reason: "suspended" };
      const used = this.#monthUsed(utcDay(now).slice(0, 7));
      // Running jobs reserve rows as leases reserve calls, and hold credits not yet in the ledger.
      const jobs = this.#store.jobsHeld();
      const reserved = this.#leaseReserved(now) + jobs.rows;
      const { credits, owed } = priceCalls({ calls, quota: account.quota, used, reserved });
      if (credits > 0) {
        const balance = this.#ledgerBalance(now, balanceSince);
        if (balance === undefined) {
          await this.#loadBalance(balanceSince ?? now);
          continue;
        }
        const spendable = balance - this.#store.state.pendingDebit - jobs.credits;
        if (spendable < credits) {
          if (balanceSince !== undefined) return { ok: false, available: Math.max(0, spendable) };
          balanceSince = Date.now();
          await this.#loadBalance(balanceSince);
          continue;
        }
      }
      return { ok: true, value: act({ credits, owed, quota: account.quota, used, reserved }) };
    }
  }

  /**
   * Decides whether `calls` more calls (1, or the items of a batch) may be served, all of them or
   * none, and counts them if so; for a single call with quota to spare, also grants a lease.
   * `ticket`: the isolate's id for this admission, by which `giveBack` finds what it counted.
   */
  async admit({
    keyId,
    endpoint,
    calls = 1,
    ticket,
    now = Date.now(),
    origin = null,
  }: {
    keyId: string;
    endpoint: string;
    calls?: number;
    ticket?: string;
    now?: number;
    /** Where the call came from (Origin or the Referer's), kept as the key's last-used origin. */
    origin?: string | null;
  }): Promise<Admission> {
    const day = utcDay(now);
    const d = await this.#price(keyId, calls, now, ({ credits, owed, quota, used, reserved }) => {
      if (credits > 0) {
        const { pendingDebit, owedToReservations } = this.#store.state;
        this.#store.setState({ pendingDebit: pendingDebit + credits, owedToReservations: owedToReservations + owed });
      }
      this.#store.count(keyId, endpoint, day, calls, now, origin);
      if (ticket) this.#store.remember(ticket, { keyId, endpoint, day, calls, credits }, false, now);
      if (this.#month) this.#month.used += calls;
      return this.#answer(day, now, calls, credits, quota - used - reserved);
    });
    if (!d.ok) return { ok: false, ...(d.reason ? { reason: d.reason } : {}) };
    await this.#scheduleFlush();
    return d.value;
  }

  /** The answer to an admission just counted; a lease (sized on the counts it was decided on) is reserved here. */
  #answer(day: string, now: number, calls: number, credits: number, left: number): Admission {
    if (credits > 0) return { ok: true, charged: true, credits, day };
    const leaseCalls = calls === 1 ? leaseSize(left) : 0;
    if (leaseCalls === 0) return { ok: true, charged: false, day };
    const lease = { id: crypto.randomUUID(), calls: leaseCalls, ms: LEASE_MS, revoked: [...this.#recentlyRevoked(now).keys()] };
    this.#store.addLease(lease.id, leaseCalls, now + LEASE_MS + LEASE_GRACE_MS);
    return { ok: true, charged: false, day, lease };
  }

  /**
   * Ends a lease with what its isolate served under it. The counts are recorded even if the lease
   * already ended by time (the calls were served); its reservation is released once. A settle
   * whose answer was lost is sent again: its counts are recorded once.
   */
  async settle({ leaseId, counts }: { leaseId: string; counts: LeaseCounts }): Promise<void> {
    const ticket = `settle:${leaseId}`;
    if (this.#store.ticket(ticket)) return;
    this.#store.remember(ticket, { keyId: "", endpoint: "", day: "", calls: 0, credits: 0 }, true, Date.now());
    let served = 0;
    for (const r of counts) {
      if (r.count <= 0) continue;
      this.#store.count(r.key_id, r.endpoint, r.day, r.count, r.last_at, r.origin ?? null);
      served += r.count;
    }
    const reserved = this.#store.leaseCalls(leaseId);
    if (reserved !== undefined) this.#endLease(leaseId, Math.max(0, reserved - served));
    this.#month = undefined;
    if (served > 0) await this.#scheduleFlush();
  }

  /**
   * Gives back calls that were not served (the request failed, or never got the object's answer)
   * and the credits they spent, once per `ticket` however often asked:
   * - the ticket of an admission: what that admission counted, if it counted anything;
   * - a new ticket with `counted`: calls the object learnt of otherwise (a lease's, once settled).
   */
  async giveBack({ ticket, counted }: { ticket: string; counted?: Counted }): Promise<void> {
    const known = this.#store.ticket(ticket);
    if (known?.done) return;
    const back = known ?? counted;
    if (!back) return;
    if (known) this.#store.markDone(ticket);
    else this.#store.remember(ticket, back, true, Date.now());
    this.#store.uncount(back.keyId, back.endpoint, back.day, back.calls);
    this.#month = undefined;
    // May go below zero when the debit was already flushed: the next flush then credits it back.
    if (back.credits > 0) this.#store.setState({ pendingDebit: this.#store.state.pendingDebit - back.credits });
  }

  /**
   * Reserves a bulk job's rows (one call each) from the quota and credits, whole or not at all, as
   * `admit` decides a batch; nothing is counted until rows are done (`chargeJobRows`). Asking again
   * for the same job answers the reservation already made.
   */
  async reserveJob({
    jobId,
    keyId,
    endpoint,
    rows,
    now = Date.now(),
  }: {
    jobId: string;
    keyId: string;
    endpoint: string;
    rows: number;
    now?: number;
  }): Promise<JobAdmission> {
    const known = this.#store.job(jobId);
    if (known) return { ok: true, credits: known.credits };
    const d = await this.#price(keyId, rows, now, ({ credits }) => {
      const again = this.#store.job(jobId); // asked twice at once: the first reservation stands
      if (again) return again.credits;
      this.#store.addJob({ id: jobId, keyId, endpoint, rows, credits });
      return credits;
    });
    return d.ok ? { ok: true, credits: d.value } : d;
  }

  /**
   * Counts `rows` rows of a job's `chunk` as done and charges them (`priceJobRows`), once per chunk
   * however often asked: a chunk processed twice is charged once. A job that has ended takes no
   * more rows (`charged: false`); a chunk charged before it ended stays charged.
   */
  async chargeJobRows({
    jobId,
    chunk,
    rows,
    now = Date.now(),
  }: {
    jobId: string;
    chunk: number;
    rows: number;
    now?: number;
  }): Promise<{ charged: boolean; rows: number }> {
    const known = this.#store.jobChunk(jobId, chunk);
    if (known !== undefined) return { charged: true, rows: known };
    const job = this.#store.job(jobId);
    if (!job || job.ended) return { charged: false, rows: 0 };
    const price = priceJobRows(job, rows);
    const day = utcDay(now);
    this.#store.setJob({ ...job, rowsDone: job.rowsDone + price.rows, creditsSpent: job.creditsSpent + price.credits });
    this.#store.count(job.keyId, job.endpoint, day, price.rows, now);
    this.#store.addJobChunk(jobId, chunk, price.rows);
    if (this.#month) this.#month.used += price.rows;
    await this.#scheduleFlush();
    return { charged: true, rows: price.rows };
  }

  /**
   * A job is over (done, failed or cancelled): what it reserved and did not spend goes back, and
   * the next flush writes its one ledger entry (its rows and the credits they cost). Safe to repeat.
   */
  async endJob({ jobId }: { jobId: string }): Promise<{ rows: number; credits: number } | undefined> {
    const job = this.#store.job(jobId);
    if (!job) return undefined;
    if (!job.ended) {
      this.#store.setJob({ ...job, ended: true, credits: job.creditsSpent });
      await this.#scheduleFlush();
    }
    return { rows: job.rowsDone, credits: job.creditsSpent };
  }

  /** A job past its keeping days (src/jobs, the cron's prune): its reservation and charged chunks go once its ledger entry is written; false when not yet. */
  async forgetJob({ jobId }: { jobId: string }): Promise<boolean> {
    return this.#store.forgetJob(jobId);
  }

  /** Forget cached plan, status and balance (after a payment, a grant, a plan change, a suspension or reinstatement). */
  async refresh(): Promise<void> {
    this.#generation++;
    this.#plan = undefined;
    this.#balance = undefined;
  }

  /** Credits spent and not in the D1 ledger yet (calls' and jobs'). */
  async pendingDebits(): Promise<number> {
    return this.#store.state.pendingDebit + this.#store.jobsHeld().spent;
  }

  /** Live counts of one month (`YYYY-MM`), flushed or not. */
  async usage(month: string): Promise<MonthUsage> {
    return this.#store.usage(month);
  }

  async #scheduleFlush() {
    if (this.#store.state.flushScheduled) return;
    this.#store.setState({ flushScheduled: true });
    await this.schedule(FLUSH_DELAY_SECONDS, "flush");
  }

  /** Writes changed counts, last-use times and the aggregate credit debit to D1 (scheduled; also callable). */
  async flush(): Promise<void> {
    const store = this.#store;
    store.setState({ flushScheduled: false });
    // Old tickets go here, not on every call (every admission schedules a flush).
    store.forgetTicketsBefore(Date.now() - TICKET_MS);
    const userId = this.name;
    const { counts, lastUse } = store.unflushed();
    // The debit of this flush is fixed (amount and ref) before writing, so a retry writes the same row.
    // A negative pending debit (credits given back after a flush) is written as a positive entry.
    if (!store.state.flushDebit && store.state.pendingDebit !== 0) {
      store.setState({ flushDebit: { amount: store.state.pendingDebit, ref: `usage:${userId}:${crypto.randomUUID()}` } });
    }
    const debit = store.state.flushDebit;
    const jobs = store.unwrittenJobs();
    if (counts.length === 0 && lastUse.length === 0 && !debit && jobs.length === 0) return;
    const db = primaryDb(guardedEnv(this.env));
    const now = Date.now();
    // One D1 batch (one transaction); each table is written by its owner's query.
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
    if (debit || jobs.length > 0) {
      if (debit) store.setState({ pendingDebit: store.state.pendingDebit - debit.amount, flushDebit: null });
      // A balance read during the batch may predate the debit, which is no longer pending: drop it.
      this.#generation++;
      this.#balance = undefined;
    }
    if (store.hasUnflushed() || store.state.pendingDebit !== 0) await this.#scheduleFlush();
  }
}
