import { Agent } from "agents";
import { findUserById } from "../auth/queries";
import { batch, primaryDb } from "../db/client";
import { guardedEnv } from "../db/guard";
import { touchLastUsed } from "../keys/queries";
import { utcDay } from "../lib/time";
import { deliverAlert } from "./alerts";
import { ledgerReasons } from "./ledger-reasons";
import { appendLedgerOnce, findAccountSettings, findPlan, ledgerBalance, upsertDailyCount } from "./queries";
import { type LoggedCall, type LogQuery, RequestLogStore } from "./request-store";
import { creditsBack, leaseSize, passesSpendLimit, priceCalls, priceJobRows, quotaAlertsReached, requestLogDays } from "./rules";
import { AccountStore, type AlertData, type AlertKind, type Counted, type LeaseCounts, type MonthUsage } from "./store";

export type { AlertData, AlertKind, Counted, LeaseCounts, MonthUsage } from "./store";

/** Seconds between a first unflushed call and the flush to D1. */
const FLUSH_DELAY_SECONDS = 60;
/** How long the plan and the D1 credit balance are trusted before being read again. */
const PLAN_TTL_MS = 60_000;
const BALANCE_TTL_MS = 5_000;
/** How long an isolate may admit calls under a lease. */
export const LEASE_MS = 1_000;
/** How long tickets are kept for exactly-once give-backs and settles (a lease lasts 1 s, a retry seconds). */
const TICKET_MS = 10 * 60_000;
/** The request log past this size (bytes of the object's whole SQLite) drops its oldest day early: the object's storage holds 10 GB. */
const LOG_MAX_BYTES = 4 * 1024 ** 3;
/** How often the request log's days past keeping are dropped (at most). */
const LOG_PRUNE_MS = 60 * 60_000;
const DAY_MS = 24 * 60 * 60_000;
/** After an alert failed to be sent (D1, the queue): tried again this much later. */
const ALERT_RETRY_SECONDS = 60;
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
/** Why an admission refused, besides no quota and credits: the key, the account, or the account's own spend limit (`limit`). */
export type Refusal = { reason?: "revoked" | "suspended" | "spend_limit"; limit?: number };
/** A job's reservation: `credits` held beside its free rows. Refused: not enough quota and credits (`available`: the credits it could have), or a `Refusal`. */
export type JobAdmission = { ok: true; credits: number } | ({ ok: false; available?: number } & Refusal);

export type Admission = { ok: true; charged: boolean; credits?: number; day: string; lease?: Lease } | ({ ok: false } & Refusal);

/** The account as admission knows it: plan, status and the account's own settings (a minute old at most). */
type Account = { plan: string; quota: number; suspended: boolean; spendLimit: number | null; lowCreditsBelow: number | null; at: number };

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
  #plan: Account | undefined;
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
  #logOpened: RequestLogStore | undefined;
  /** When the request log last dropped its days past keeping (this object's life; 0: not yet). */
  #logPrunedAt = 0;
  /** Alerts fired, as `month:kind:level` (mirrored from storage): the check on every count reads no storage. */
  #alerted: Set<string> | undefined;
  /** An alert fired since the last one was handed to `sendAlerts`. */
  #alertsDue = false;

  get #store(): AccountStore {
    this.#storeOpened ??= new AccountStore(this.sql.bind(this));
    return this.#storeOpened;
  }

  get #log(): RequestLogStore {
    this.#logOpened ??= new RequestLogStore((query, ...bindings) => {
      const cursor = this.ctx.storage.sql.exec(query, ...bindings);
      return { rows: cursor.toArray() as Record<string, string | number | null>[], rowsWritten: cursor.rowsWritten };
    });
    return this.#logOpened;
  }

  #monthUsed(month: string): number {
    if (this.#month?.month !== month) this.#month = { month, used: this.#store.monthTotal(month) };
    return this.#month.used;
  }

  /** The plan's quota, whether the account is suspended and its own settings, if known and less than a minute old. */
  #account(now: number): Account | undefined {
    return this.#plan && now - this.#plan.at <= PLAN_TTL_MS ? this.#plan : undefined;
  }

  /** Reads plan and status again (after `refresh`, or a minute later); a read overtaken by `refresh` is dropped. */
  #loadAccount(now: number): Promise<void> {
    this.#planLoad ??= (async () => {
      const generation = this.#generation;
      try {
        const db = primaryDb(guardedEnv(this.env));
        const [user, settings] = await Promise.all([findUserById(db, this.name), findAccountSettings(db, this.name)]);
        const plan = user ? await findPlan(db, user.plan) : undefined;
        if (generation === this.#generation)
          this.#plan = {
            plan: user?.plan ?? "free",
            quota: plan?.monthlyQuota ?? 0,
            suspended: user?.status === "suspended",
            spendLimit: settings?.spendLimit ?? null,
            lowCreditsBelow: settings?.lowCreditsBelow ?? null,
            at: now,
          };
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
    if (back > 0) {
      this.#store.setState({ owedToReservations: owedToReservations - back, pendingDebit: pendingDebit - back });
      this.#store.addMonthSpend(utcDay(Date.now()).slice(0, 7), -back);
    }
  }

  /**
   * What `calls` more calls cost now: free within the quota (less reservations), credits beyond.
   * Awaits D1 only to learn the plan, status and (when credits are needed) the balance, then decides
   * and runs `act` on the decision in the same synchronous stretch: other requests enter the object
   * while one waits on D1 (many may wait on the same read), so the counts must change before any of
   * them decides again, and after any wait everything is read again.
   * Refused: the key revoked, the account suspended, credits beyond the account's monthly spend
   * limit (decided before the balance is read: no D1 read for it), or not enough credits
   * (`available`: how many there are), decided on a balance read after the first refusal (a
   * payment may have landed).
   */
  async #price<T>(
    keyId: string,
    calls: number,
    now: number,
    act: (d: { credits: number; owed: number; quota: number; used: number; reserved: number }) => T,
  ): Promise<{ ok: true; value: T } | ({ ok: false; available?: number } & Refusal)> {
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
      const month = utcDay(now).slice(0, 7);
      if (passesSpendLimit(account.spendLimit, this.#store.monthSpend(month) + jobs.unspent, credits)) {
        const limit = account.spendLimit ?? 0;
        this.#fire(now, "spend_limit", limit, { used, quota: account.quota, limit, spent: this.#store.monthSpend(month) + jobs.unspent });
        return { ok: false, reason: "spend_limit", limit };
      }
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
        this.#store.addMonthSpend(day.slice(0, 7), credits);
      }
      this.#store.count(keyId, endpoint, day, calls, now, origin);
      if (ticket) this.#store.remember(ticket, { keyId, endpoint, day, calls, credits }, false, now);
      if (this.#month) this.#month.used += calls;
      this.#usageAlerts(now, credits > 0);
      return this.#answer(day, now, calls, credits, quota - used - reserved);
    });
    if (!d.ok) {
      await this.#alertsAfter();
      return { ok: false, ...(d.reason ? { reason: d.reason } : {}), ...(d.limit !== undefined ? { limit: d.limit } : {}) };
    }
    await this.#scheduleFlush();
    await this.#alertsAfter();
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
    if (served > 0) {
      this.#usageAlerts(Date.now(), false);
      await this.#scheduleFlush();
      await this.#alertsAfter();
    }
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
    if (back.credits > 0) {
      this.#store.setState({ pendingDebit: this.#store.state.pendingDebit - back.credits });
      this.#store.addMonthSpend(back.day.slice(0, 7), -back.credits);
    }
  }

  /**
   * Whether `calls` more calls could be admitted now (quota, then credits), counting nothing: what
   * the gate asks before a bulk job's upload is read, so an account that can pay for nothing is
   * refused (402) before it sends its file. The job's own reservation decides again, once its rows
   * are counted.
   */
  async canSpend({ keyId, calls = 1, now = Date.now() }: { keyId: string; calls?: number; now?: number }): Promise<Admission> {
    const d = await this.#price(keyId, calls, now, () => true);
    return d.ok ? { ok: true, charged: false, day: utcDay(now) } : { ok: false, ...(d.reason ? { reason: d.reason, limit: d.limit } : {}) };
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
      // Credits a job holds are as good as spent for the balance: the low-credits alert looks now.
      if (credits > 0) this.#creditsAlert(now);
      return credits;
    });
    await this.#alertsAfter();
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
    this.#store.addMonthSpend(day.slice(0, 7), price.credits);
    if (this.#month) this.#month.used += price.rows;
    this.#usageAlerts(now, false);
    await this.#scheduleFlush();
    await this.#alertsAfter();
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

  // ---------------------------------------------------------------- alerts

  /**
   * After calls were counted: quota alerts the month's usage reached, and (when credits were just
   * spent) the low-credits alert. Synchronous, no storage read unless an alert is new.
   */
  #usageAlerts(now: number, spentCredits: boolean): void {
    const account = this.#plan;
    if (!account) return;
    const used = this.#monthUsed(utcDay(now).slice(0, 7));
    for (const pct of quotaAlertsReached(used, account.quota)) this.#fire(now, "quota", pct, { used, quota: account.quota });
    if (spentCredits) this.#creditsAlert(now);
  }

  /** The low-credits alert, when the account set a level and the credits left (as last read, less what is pending and held) are below it. */
  #creditsAlert(now: number): void {
    const account = this.#plan;
    const balance = this.#balance?.value;
    if (!account || account.lowCreditsBelow === null || balance === undefined) return;
    const left = balance - this.#store.state.pendingDebit - this.#store.jobsHeld().credits;
    if (left >= account.lowCreditsBelow) return;
    const month = utcDay(now).slice(0, 7);
    this.#fire(now, "credits", account.lowCreditsBelow, {
      used: this.#monthUsed(month),
      quota: account.quota,
      balance: Math.max(0, left),
      spent: this.#store.monthSpend(month),
    });
  }

  /** An alert fired: recorded once per month, kind and level (a repeat does nothing); sent by `sendAlerts`. */
  #fire(now: number, kind: AlertKind, level: number, data: AlertData): void {
    const month = utcDay(now).slice(0, 7);
    const id = `${month}:${kind}:${level}`;
    this.#alerted ??= new Set(this.#store.alerts().map((a) => `${a.month}:${a.kind}:${a.level}`));
    if (this.#alerted.has(id)) return;
    this.#alerted.add(id);
    if (this.#store.addAlert({ month, kind, level, at: now, data })) this.#alertsDue = true;
  }

  /** Alerts fired by this event are handed to an alarm of their own: the call that fired them does not wait for mail or D1. */
  async #alertsAfter(): Promise<void> {
    if (!this.#alertsDue) return;
    this.#alertsDue = false;
    await this.schedule(0, "sendAlerts");
  }

  /**
   * Sends the alerts not sent yet (scheduled by the event that fired them): each recorded in D1,
   * emailed in the account's language and announced to its webhooks (`usage.threshold`), each once
   * (deliverAlert is safe to repeat). A failure is tried again a minute later.
   */
  async sendAlerts(): Promise<void> {
    for (const alert of this.#store.alerts().filter((a) => !a.sent)) {
      try {
        await deliverAlert(guardedEnv(this.env), this.name, alert);
        this.#store.markAlertSent(alert);
      } catch {
        await this.schedule(ALERT_RETRY_SECONDS, "sendAlerts");
        return;
      }
    }
  }

  /** What the month stands at: calls against the plan's quota, credits spent beyond it (held by running jobs included) against the spend limit. */
  async limits({ now = Date.now() }: { now?: number } = {}): Promise<{ month: string; used: number; quota: number; spent: number }> {
    const month = utcDay(now).slice(0, 7);
    if (!this.#account(now)) await this.#loadAccount(now);
    return {
      month,
      used: this.#monthUsed(month),
      quota: this.#account(now)?.quota ?? 0,
      spent: this.#store.monthSpend(month) + this.#store.jobsHeld().unspent,
    };
  }

  // ---------------------------------------------------------------- the request log

  /**
   * Lines of the request log from an isolate (request-log.ts), written once each however often
   * sent. Days past the plan's keeping are dropped here, at most once an hour. Returns the rows
   * written (the cost the platform bills: one per line).
   */
  async logRequests({ calls, now = Date.now() }: { calls: LoggedCall[]; now?: number }): Promise<{ written: number }> {
    const written = this.#log.add(calls);
    if (now - this.#logPrunedAt >= LOG_PRUNE_MS) {
      this.#logPrunedAt = now;
      const account = this.#account(now) ?? (await this.#loadAccount(now).then(() => this.#account(now)));
      if (account) this.#log.dropBefore(now - requestLogDays(account.plan) * DAY_MS);
      // Far more than any plan's keeping would hold: the oldest day goes first.
      for (let day = this.#log.oldestDay(); day && this.ctx.storage.sql.databaseSize > LOG_MAX_BYTES; day = this.#log.oldestDay()) this.#log.dropDay(day);
    }
    return { written };
  }

  /** A page of the request log, newest first, never older than the plan keeps (`keptDays`). */
  async requestLog(query: LogQuery & { now?: number }): Promise<{ calls: LoggedCall[]; keptDays: number }> {
    const now = query.now ?? Date.now();
    if (!this.#account(now)) await this.#loadAccount(now);
    const keptDays = requestLogDays(this.#account(now)?.plan ?? "free");
    const calls = this.#log.find({ ...query, from: Math.max(query.from, now - keptDays * DAY_MS) });
    return { calls, keptDays };
  }

  /** The object's SQLite size in bytes (the request log is most of it): for the measured cost per call. */
  async storageBytes(): Promise<number> {
    return this.ctx.storage.sql.databaseSize;
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
    // Old tickets go here, not on every call (every admission schedules a flush); so do last month's alerts, sent.
    store.forgetTicketsBefore(Date.now() - TICKET_MS);
    store.forgetAlertsBefore(utcDay(Date.now()).slice(0, 7));
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
