import { Agent } from "agents";
import { utcDay } from "../lib/time";
import { type Account, AccountCache } from "./object-account";
import { AlertBook } from "./object-alerts";
import { flushToD1 } from "./object-flush";
import { type Lease, LeasesOut } from "./object-leases";
import { RequestLog } from "./object-log";
import { RevokedKeys } from "./object-revoked";
import type { LoggedCall, LogQuery } from "./request-store";
import { passesSpendLimit, priceCalls, priceJobRows } from "./rules";
import { AccountStore, type Counted, type LeaseCounts, type MonthUsage } from "./store";

export type { Lease } from "./object-leases";
export type { Counted, LeaseCounts, MonthUsage } from "./store";

/** Seconds between a first unflushed call and the flush to D1. */
const FLUSH_DELAY_SECONDS = 60;
/** How long tickets are kept for exactly-once give-backs and settles (a lease lasts 1 s, a retry seconds). */
const TICKET_MS = 10 * 60_000;
/** After an alert failed to be sent (D1, the queue): tried again this much later. */
const ALERT_RETRY_SECONDS = 60;
/** Why an admission refused, besides no quota and credits: the key, the account, or the account's own spend limit (`limit`). */
export type Refusal = { reason?: "revoked" | "suspended" | "spend_limit"; limit?: number };
/** A job's reservation: `credits` held beside its free rows. Refused: not enough quota and credits (`available`: the credits it could have), or a `Refusal`. */
export type JobAdmission = { ok: true; credits: number } | ({ ok: false; available?: number } & Refusal);

/** `credits`: how many credits the admission spent (present when `charged`). */
export type Admission = { ok: true; charged: boolean; credits?: number; day: string; lease?: Lease } | ({ ok: false } & Refusal);

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
 * - `flush` (alarm, FLUSH_DELAY_SECONDS after the first change): one D1 batch, exactly once
 *   (object-flush.ts).
 *
 * Its parts, each a module of its own: what D1 says of the account (object-account.ts), the keys
 * revoked lately (object-revoked.ts), the leases out (object-leases.ts), alerts (object-alerts.ts), the request log (object-log.ts)
 * and the object's SQLite (store.ts, request-store.ts). The class owns them and the RPC methods.
 */
export class AccountObject extends Agent<Env> {
  #storeOpened: AccountStore | undefined;
  #accountsOpened: AccountCache | undefined;
  #alertsOpened: AlertBook | undefined;
  #logOpened: RequestLog | undefined;
  #revokedOpened: RevokedKeys | undefined;
  #leasesOpened: LeasesOut | undefined;
  /** Calls counted this month, kept in memory (read again from storage after a give-back or settle). */
  #month: { month: string; used: number } | undefined;

  // The object's parts, each opened on first use (the object's name is known by then).
  get #store(): AccountStore {
    this.#storeOpened ??= new AccountStore(this.sql.bind(this));
    return this.#storeOpened;
  }

  get #revoked(): RevokedKeys {
    this.#revokedOpened ??= new RevokedKeys(this.#store);
    return this.#revokedOpened;
  }

  get #leases(): LeasesOut {
    this.#leasesOpened ??= new LeasesOut(this.#store, this.#revoked);
    return this.#leasesOpened;
  }

  /** What D1 says of the account (plan, status, settings, balance), cached. */
  get #accounts(): AccountCache {
    this.#accountsOpened ??= new AccountCache(this.env, this.name);
    return this.#accountsOpened;
  }

  get #alerts(): AlertBook {
    this.#alertsOpened ??= new AlertBook(this.#store, this.#accounts, (month) => this.#monthUsed(month));
    return this.#alertsOpened;
  }

  get #log(): RequestLog {
    this.#logOpened ??= new RequestLog(
      (query, ...bindings) => {
        const cursor = this.ctx.storage.sql.exec(query, ...bindings);
        return { rows: cursor.toArray() as Record<string, string | number | null>[], rowsWritten: cursor.rowsWritten };
      },
      () => this.ctx.storage.sql.databaseSize,
    );
    return this.#logOpened;
  }

  #monthUsed(month: string): number {
    if (this.#month?.month !== month) this.#month = { month, used: this.#store.monthTotal(month) };
    return this.#month.used;
  }

  /**
   * Keys just revoked: refused by every admission from now on, and named in every lease granted
   * from now on, so no isolate serves them past the leases it already holds (at most LEASE_MS).
   */
  async revokeKeys({ keyIds, now = Date.now() }: { keyIds: string[]; now?: number }): Promise<void> {
    this.#revoked.add(keyIds, now);
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
      if (this.#revoked.recent(now).has(keyId)) return { ok: false, reason: "revoked" };
      const account: Account | undefined = this.#accounts.fresh(now);
      if (!account) {
        await this.#accounts.load(now);
        continue;
      }
      if (account.suspended) return { ok: false, reason: "suspended" };
      const used = this.#monthUsed(utcDay(now).slice(0, 7));
      // Running jobs reserve rows as leases reserve calls, and hold credits not yet in the ledger.
      const jobs = this.#store.jobsHeld();
      const reserved = this.#leases.reserved(now) + jobs.rows;
      const { credits, owed } = priceCalls({ calls, quota: account.quota, used, reserved });
      const month = utcDay(now).slice(0, 7);
      if (passesSpendLimit(account.spendLimit, this.#store.monthSpend(month) + jobs.unspent, credits)) {
        const limit = account.spendLimit ?? 0;
        this.#alerts.fire(now, "spend_limit", limit, { used, quota: account.quota, limit, spent: this.#store.monthSpend(month) + jobs.unspent });
        return { ok: false, reason: "spend_limit", limit };
      }
      if (credits > 0) {
        const balance = this.#accounts.balance(now, balanceSince);
        if (balance === undefined) {
          await this.#accounts.loadBalance(balanceSince ?? now);
          continue;
        }
        const spendable = balance - this.#store.state.pendingDebit - jobs.credits;
        if (spendable < credits) {
          if (balanceSince !== undefined) return { ok: false, available: Math.max(0, spendable) };
          balanceSince = Date.now();
          await this.#accounts.loadBalance(balanceSince);
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
      this.#alerts.usage(now, credits > 0);
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
    const lease: Lease | undefined = this.#leases.grant(now, calls, left);
    return lease ? { ok: true, charged: false, day, lease } : { ok: true, charged: false, day };
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
    if (reserved !== undefined) this.#leases.end(leaseId, Math.max(0, reserved - served));
    this.#month = undefined;
    if (served > 0) {
      this.#alerts.usage(Date.now(), false);
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
      if (credits > 0) this.#alerts.credits(now);
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
    this.#alerts.usage(now, false);
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
    this.#accounts.forget();
  }

  /** Credits spent and not in the D1 ledger yet (calls' and jobs'). */
  async pendingDebits(): Promise<number> {
    return this.#store.state.pendingDebit + this.#store.jobsHeld().spent;
  }

  /** Live counts of one month (`YYYY-MM`), flushed or not. */
  async usage(month: string): Promise<MonthUsage> {
    return this.#store.usage(month);
  }

  // ---------------------------------------------------------------- alerts (object-alerts.ts)

  /** Alerts fired by this event are handed to an alarm of their own: the call that fired them does not wait for mail or D1. */
  async #alertsAfter(): Promise<void> {
    if (this.#alerts.takeDue()) await this.schedule(0, "sendAlerts");
  }

  /** Sends the alerts not sent yet (scheduled by the event that fired them); a failure is tried again a minute later. */
  async sendAlerts(): Promise<void> {
    if (!(await this.#alerts.send(this.env, this.name))) await this.schedule(ALERT_RETRY_SECONDS, "sendAlerts");
  }

  /** What the month stands at: calls against the plan's quota, credits spent beyond it (held by running jobs included) against the spend limit. */
  async limits({ now = Date.now() }: { now?: number } = {}): Promise<{ month: string; used: number; quota: number; spent: number }> {
    const month = utcDay(now).slice(0, 7);
    const account = await this.#accounts.read(now);
    return {
      month,
      used: this.#monthUsed(month),
      quota: account?.quota ?? 0,
      spent: this.#store.monthSpend(month) + this.#store.jobsHeld().unspent,
    };
  }

  // ---------------------------------------------------------------- the request log (object-log.ts)

  /**
   * Lines of the request log from an isolate (request-log.ts), written once each however often
   * sent; days past the plan's keeping are dropped at most once an hour. Returns the rows written.
   */
  async logRequests({ calls, now = Date.now() }: { calls: LoggedCall[]; now?: number }): Promise<{ written: number }> {
    return { written: await this.#log.add(calls, now, async () => (await this.#accounts.read(now))?.plan) };
  }

  /** A page of the request log, newest first, never older than the plan keeps (`keptDays`). */
  async requestLog(query: LogQuery & { now?: number }): Promise<{ calls: LoggedCall[]; keptDays: number }> {
    const now = query.now ?? Date.now();
    return this.#log.find(query, now, (await this.#accounts.read(now))?.plan ?? "free");
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
    if (await flushToD1(this.env, this.name, store)) this.#accounts.debited();
    if (store.hasUnflushed() || store.state.pendingDebit !== 0) await this.#scheduleFlush();
  }
}
