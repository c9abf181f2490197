import { Agent } from "agents";
import { findUserById } from "../auth/queries";
import { batch, primaryDb } from "../db/client";
import { guardedEnv } from "../db/guard";
import { touchLastUsed } from "../keys/queries";
import { utcDay } from "../lib/time";
import { appendLedgerOnce, findPlan, ledgerBalance, upsertDailyCount } from "./queries";

/** Seconds between a first unflushed call and the flush to D1. */
export const FLUSH_DELAY_SECONDS = 60;
/** How long the plan and the D1 credit balance are trusted before being read again. */
const PLAN_TTL_MS = 60_000;
const BALANCE_TTL_MS = 5_000;

/**
 * Admission leases. A call inside the quota may bring back a lease: the right to serve up to
 * `calls` more free calls without asking, for `ms` milliseconds. The isolate counts them itself and
 * settles the lease (its counts, once) when it is used up or its time is over. Leases never cover
 * calls beyond the quota: every credit is spent by an exact `admit`.
 */
export const LEASE_MAX_CALLS = 100;
/** A lease takes at most this share of what is left of the quota, so the last calls are admitted one by one. */
const LEASE_SHARE = 20;
const LEASE_MIN_CALLS = 5;
export const LEASE_MS = 1_000;
/** How long tickets are kept for exactly-once give-backs and settles (a lease lasts 1 s, a retry seconds). */
const TICKET_MS = 10 * 60_000;
/** How long an unsettled lease keeps its reservation (its isolate may have gone): then it ends uncounted. */
const LEASE_GRACE_MS = 30_000;

export type MonthUsage = { key_id: string; endpoint: string; day: string; count: number }[];
/** `revoked`: the account's keys revoked lately; the isolate refuses them under the lease as the object would. */
export type Lease = { id: string; calls: number; ms: number; revoked: string[] };
/**
 * `credits`: how many credits the admission spent (present when `charged`). Refused: beyond quota
 * and credits, or (`reason`) the key was revoked or the account suspended.
 */
export type Admission = { ok: true; charged: boolean; credits?: number; day: string; lease?: Lease } | { ok: false; reason?: "revoked" | "suspended" };

/**
 * How long the object remembers a revoked key. Past it no cache anywhere can still call the key
 * valid (KV's cached lookups live 10 minutes and are distrusted for 15 after a revocation; isolates
 * keep theirs 10 seconds), so the database's answer alone refuses it.
 */
const REVOKED_MEMORY_MS = 60 * 60 * 1000;
/** What an isolate served under a lease, per key, endpoint and UTC day. */
export type LeaseCounts = { key_id: string; endpoint: string; day: string; count: number; last_at: number }[];

/**
 * The per-account Durable Object (one per user, named by user id). A Durable Object handles one
 * event at a time, so its counts are exact under any concurrency.
 *
 * - Admission: every data call asks `admit` before it is served. Within the plan's monthly quota
 *   it is free; beyond, it spends 1 credit (balance = D1 ledger - debits not yet written); with none
 *   left it is refused. A batch (`calls` > 1: one call per item) is admitted whole or refused whole:
 *   the part beyond the quota must be covered by credits. A call that then fails is given back with
 *   `release`.
 * - Leases: with plenty of quota left, an admission also grants a lease (above), so a busy isolate
 *   asks once per lease instead of once per call. Until settled, a lease's calls are reserved: the
 *   quota check counts them as used. If that reservation makes an exact call spend a credit and the
 *   lease then ends with calls unused, the credit is given back, so the credits spent always equal
 *   the calls served beyond the quota.
 * - Usage: live counts per key, endpoint and UTC day in the object's own SQLite (lease calls once settled).
 * - Flush (alarm, FLUSH_DELAY_SECONDS after the first change): one D1 batch with the changed counts
 *   (absolute, so repeating a flush changes nothing), each key's last use, and one aggregate ledger
 *   debit for the credits spent since the last flush, written under a unique ref decided before the
 *   write, so a retried flush can neither lose nor double a debit.
 */
export class AccountAgent extends Agent<Env> {
  #ready = false;
  #plan: { quota: number; suspended: boolean; at: number } | undefined;
  /** Revoked key id -> when (ms), mirrored from the `revoked_keys` table. */
  #revoked: Map<string, number> | undefined;
  /**
   * Admissions, releases and settles by ticket (the isolate's id for one of them), kept in storage
   * for TICKET_MS: a request whose answer from this object was lost is given back exactly once, and
   * a retried release or settle applies once, also across a restart of the object.
   */
  #remember(ticket: string, e: { keyId: string; endpoint: string; day: string; calls: number; credits: number; done: boolean }, now: number) {
    this
      .sql`INSERT OR REPLACE INTO tickets (id, key_id, endpoint, day, calls, credits, done, at) VALUES (${ticket}, ${e.keyId}, ${e.endpoint}, ${e.day}, ${e.calls}, ${e.credits}, ${e.done ? 1 : 0}, ${now})`;
  }

  #ticket(ticket: string) {
    return this.sql<{
      key_id: string;
      endpoint: string;
      day: string;
      calls: number;
      credits: number;
      done: number;
    }>`SELECT key_id, endpoint, day, calls, credits, done FROM tickets WHERE id = ${ticket}`[0];
  }
  #balance: { value: number; at: number } | undefined;
  /** Calls counted this month, kept in memory (rebuilt from storage when the object wakes). */
  #month: { month: string; used: number } | undefined;
  #flushScheduled = false;

  #ensureTables() {
    if (this.#ready) return;
    // last_at: the latest call counted in the row; the flush turns it into the key's last_used_at.
    this
      .sql`CREATE TABLE IF NOT EXISTS usage_counts (key_id TEXT NOT NULL, endpoint TEXT NOT NULL, day TEXT NOT NULL, count INTEGER NOT NULL, last_at INTEGER NOT NULL DEFAULT 0, dirty INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (key_id, endpoint, day))`;
    this.sql`CREATE TABLE IF NOT EXISTS account_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)`;
    this.sql`CREATE TABLE IF NOT EXISTS leases (id TEXT PRIMARY KEY, calls INTEGER NOT NULL, expires_at INTEGER NOT NULL)`;
    this.sql`CREATE TABLE IF NOT EXISTS revoked_keys (key_id TEXT PRIMARY KEY, at INTEGER NOT NULL)`;
    // Tickets of recent admissions, releases and settles: what each counted, and whether it was given back.
    this
      .sql`CREATE TABLE IF NOT EXISTS tickets (id TEXT PRIMARY KEY, key_id TEXT NOT NULL, endpoint TEXT NOT NULL, day TEXT NOT NULL, calls INTEGER NOT NULL, credits INTEGER NOT NULL, done INTEGER NOT NULL, at INTEGER NOT NULL)`;
    this.#flushScheduled = this.#meta("flush_pending") !== undefined;
    this.#ready = true;
  }

  #monthUsed(month: string): number {
    if (this.#month?.month !== month) {
      this.#month = { month, used: this.sql<{ n: number }>`SELECT coalesce(sum(count), 0) AS n FROM usage_counts WHERE day LIKE ${`${month}-%`}`[0].n };
    }
    return this.#month.used;
  }

  #meta(k: string): string | undefined {
    return this.sql<{ v: string }>`SELECT v FROM account_meta WHERE k = ${k}`[0]?.v;
  }

  #setMeta(k: string, v: string | number) {
    this.sql`INSERT OR REPLACE INTO account_meta (k, v) VALUES (${k}, ${String(v)})`;
  }

  /** Credits spent and not yet written to the D1 ledger (including a flush in progress). */
  #pending(): number {
    return Number(this.#meta("pending_debit") ?? 0);
  }

  /**
   * Bumped by `refresh` and by a flush's debit: a D1 read started before it answers with values older
   * than what the object now knows, so its answer is dropped instead of cached.
   */
  #generation = 0;
  /** The plan read under way, shared by every admission that needs it (one D1 read at a time). */
  #planLoad: Promise<void> | undefined;
  #balanceLoad: Promise<void> | undefined;

  /** The plan's quota and whether the account is suspended, if known and less than a minute old. */
  #account(now: number): { quota: number; suspended: boolean } | undefined {
    return this.#plan && now - this.#plan.at <= PLAN_TTL_MS ? this.#plan : undefined;
  }

  /** Reads plan and status again (after `refresh`, or a minute later); a read overtaken by `refresh` is dropped. */
  #loadAccount(userId: string, now: number): Promise<void> {
    this.#planLoad ??= (async () => {
      const generation = this.#generation;
      try {
        const db = primaryDb(guardedEnv(this.env));
        const user = await findUserById(db, userId);
        const plan = user ? await findPlan(db, user.plan) : undefined;
        if (generation === this.#generation) this.#plan = { quota: plan?.monthlyQuota ?? 0, suspended: user?.status === "suspended", at: now };
      } finally {
        this.#planLoad = undefined;
      }
    })();
    return this.#planLoad;
  }

  /** The keys revoked within REVOKED_MEMORY_MS (older ones are forgotten here). */
  #recentlyRevoked(now: number): Map<string, number> {
    if (!this.#revoked) {
      this.#revoked = new Map(this.sql<{ key_id: string; at: number }>`SELECT key_id, at FROM revoked_keys`.map((r) => [r.key_id, r.at]));
    }
    for (const [id, at] of this.#revoked) {
      if (at > now - REVOKED_MEMORY_MS) continue;
      this.#revoked.delete(id);
      this.sql`DELETE FROM revoked_keys WHERE key_id = ${id}`;
    }
    return this.#revoked;
  }

  /**
   * Keys just revoked: refused by every admission from now on, and named in every lease granted
   * from now on, so no isolate serves them past the leases it already holds (at most LEASE_MS).
   */
  async revokeKeys(keyIds: string[], now: number = Date.now()): Promise<void> {
    this.#ensureTables();
    const revoked = this.#recentlyRevoked(now);
    for (const id of keyIds) {
      this.sql`INSERT OR REPLACE INTO revoked_keys (key_id, at) VALUES (${id}, ${now})`;
      revoked.set(id, now);
    }
  }

  /** The D1 credit balance, if read less than BALANCE_TTL_MS ago (or since `since`). */
  #ledgerBalance(now: number, since?: number): number | undefined {
    const b = this.#balance;
    return b && now - b.at <= BALANCE_TTL_MS && (since === undefined || b.at >= since) ? b.value : undefined;
  }

  /** Reads the D1 credit balance again; a read overtaken by `refresh` or a flush's debit is dropped. */
  #loadBalance(userId: string, now: number): Promise<void> {
    this.#balanceLoad ??= (async () => {
      const generation = this.#generation;
      try {
        const value = await ledgerBalance(primaryDb(guardedEnv(this.env)), userId);
        if (generation === this.#generation) this.#balance = { value, at: now };
      } finally {
        this.#balanceLoad = undefined;
      }
    })();
    return this.#balanceLoad;
  }

  /** Calls promised to unsettled leases; leases past their grace end here, uncounted. */
  #reserved(now: number): number {
    for (const gone of this.sql<{ id: string; calls: number }>`SELECT id, calls FROM leases WHERE expires_at <= ${now}`) this.#endLease(gone.id, gone.calls);
    return this.sql<{ n: number }>`SELECT coalesce(sum(calls), 0) AS n FROM leases`[0].n;
  }

  /** A lease is over with `unused` calls not served: credits its reservation made others spend come back. */
  #endLease(id: string, unused: number) {
    this.sql`DELETE FROM leases WHERE id = ${id}`;
    const owed = Number(this.#meta("reservation_debits") ?? 0);
    const back = Math.min(unused, owed);
    if (back > 0) {
      this.#setMeta("reservation_debits", owed - back);
      this.#setMeta("pending_debit", this.#pending() - back);
    }
  }

  #count(keyId: string, endpoint: string, day: string, n: number, at: number) {
    this.sql`INSERT INTO usage_counts (key_id, endpoint, day, count, last_at) VALUES (${keyId}, ${endpoint}, ${day}, ${n}, ${at})
             ON CONFLICT (key_id, endpoint, day) DO UPDATE SET count = count + excluded.count, last_at = max(last_at, excluded.last_at), dirty = 1`;
  }

  /**
   * Decides whether `calls` more calls (1, or the items of a batch) may be served, all of them or
   * none, and counts them if so; for a single call with quota to spare, also grants a lease.
   */
  async admit(userId: string, keyId: string, endpoint: string, now: number = Date.now(), calls = 1, ticket?: string): Promise<Admission> {
    this.#ensureTables();
    const day = utcDay(now);
    // Set when the balance was too low: decide once more on a balance read after this moment.
    let balanceSince: number | undefined;
    // Every await is before the decision: other requests enter the object while one waits on D1, so
    // the counts are read, the decision made and the calls counted in one synchronous stretch, and
    // after any wait everything is read again.
    for (;;) {
      if (this.#recentlyRevoked(now).has(keyId)) return { ok: false, reason: "revoked" };
      const account = this.#account(now);
      if (!account) {
        await this.#loadAccount(userId, now);
        continue;
      }
      const { quota, suspended } = account;
      if (suspended) return { ok: false, reason: "suspended" };
      const used = this.#monthUsed(day.slice(0, 7));
      const reserved = this.#reserved(now);
      // Free: what is left of the quota after leases' reservations; the rest spends credits.
      const free = Math.min(calls, Math.max(0, quota - used - reserved));
      const credits = calls - free;
      if (credits > 0) {
        const balance = this.#ledgerBalance(now, balanceSince);
        if (balance === undefined) {
          await this.#loadBalance(userId, balanceSince ?? now);
          continue;
        }
        if (balance - this.#pending() < credits) {
          if (balanceSince !== undefined) return { ok: false };
          // Not enough by the cached balance: read it once more (a payment may have landed), then decide again.
          balanceSince = Date.now();
          await this.#loadBalance(userId, balanceSince);
          continue;
        }
        this.#setMeta("pending_debit", this.#pending() + credits);
        // Spent only because of leases' reservations (free without them): owed back if they end unused.
        const owed = Math.min(credits, Math.min(calls, Math.max(0, quota - used)) - free);
        if (owed > 0) this.#setMeta("reservation_debits", Number(this.#meta("reservation_debits") ?? 0) + owed);
      }
      this.#count(keyId, endpoint, day, calls, now);
      if (ticket) this.#remember(ticket, { keyId, endpoint, day, calls, credits, done: false }, now);
      if (this.#month) this.#month.used += calls;
      const admission = this.#answer(day, now, calls, credits, quota - used - reserved);
      await this.#scheduleFlush(userId);
      return admission;
    }
  }

  /** The answer to an admission just counted; a lease (sized on the counts it was decided on) is reserved here. */
  #answer(day: string, now: number, calls: number, credits: number, left: number): Admission {
    if (credits > 0) return { ok: true, charged: true, credits, day };
    if (calls > 1) return { ok: true, charged: false, day };
    const leaseCalls = Math.min(LEASE_MAX_CALLS, Math.floor((left - 1) / LEASE_SHARE));
    if (leaseCalls < LEASE_MIN_CALLS) return { ok: true, charged: false, day };
    const lease = { id: crypto.randomUUID(), calls: leaseCalls, ms: LEASE_MS, revoked: [...this.#recentlyRevoked(now).keys()] };
    this.sql`INSERT INTO leases (id, calls, expires_at) VALUES (${lease.id}, ${leaseCalls}, ${now + LEASE_MS + LEASE_GRACE_MS})`;
    return { ok: true, charged: false, day, lease };
  }

  /**
   * Ends a lease with what its isolate served under it. The counts are recorded even if the lease
   * already ended by time (the calls were served); its reservation is released once.
   */
  async settle(userId: string, leaseId: string, counts: LeaseCounts): Promise<void> {
    this.#ensureTables();
    // A settle whose answer was lost is sent again: its counts are recorded once.
    const ticket = `settle:${leaseId}`;
    if (this.#ticket(ticket)) return;
    this.#remember(ticket, { keyId: "", endpoint: "", day: "", calls: 0, credits: 0, done: true }, Date.now());
    let served = 0;
    for (const r of counts) {
      if (r.count <= 0) continue;
      this.#count(r.key_id, r.endpoint, r.day, r.count, r.last_at);
      served += r.count;
    }
    const lease = this.sql<{ calls: number }>`SELECT calls FROM leases WHERE id = ${leaseId}`[0];
    if (lease) this.#endLease(leaseId, Math.max(0, lease.calls - served));
    this.#month = undefined;
    if (served > 0) await this.#scheduleFlush(userId);
  }

  /**
   * Gives back what the admission of `ticket` counted, if this object admitted it and it was not
   * given back yet: the request was not served (or never got the answer). Safe to repeat.
   */
  async cancel(ticket: string): Promise<void> {
    this.#ensureTables();
    const entry = this.#ticket(ticket);
    if (!entry || entry.done) return;
    this.sql`UPDATE tickets SET done = 1 WHERE id = ${ticket}`;
    await this.release(entry.key_id, entry.endpoint, entry.day, entry.credits > 0, entry.calls, entry.credits);
  }

  /**
   * Gives back admitted calls (1, or a batch's items) that were not served successfully, and the
   * credits they spent. With a `ticket`, a repeat of the same release changes nothing.
   */
  async release(keyId: string, endpoint: string, day: string, charged: boolean, calls = 1, credits = charged ? 1 : 0, ticket?: string): Promise<void> {
    this.#ensureTables();
    if (ticket) {
      if (this.#ticket(ticket)) return;
      this.#remember(ticket, { keyId, endpoint, day, calls, credits, done: true }, Date.now());
    }
    this
      .sql`UPDATE usage_counts SET count = max(0, count - ${calls}), dirty = 1 WHERE key_id = ${keyId} AND endpoint = ${endpoint} AND day = ${day} AND count > 0`;
    this.#month = undefined;
    // May go below zero when the debit was already flushed: the next flush then credits it back.
    if (credits > 0) this.#setMeta("pending_debit", this.#pending() - credits);
  }

  /** Forget cached plan, status and balance (after a payment, a grant, a plan change, a suspension or reinstatement). */
  async refresh(): Promise<void> {
    this.#generation++;
    this.#plan = undefined;
    this.#balance = undefined;
  }

  async pendingDebits(): Promise<number> {
    this.#ensureTables();
    return this.#pending();
  }

  /** Live counts of one month (`YYYY-MM`), flushed or not. */
  async usage(month: string): Promise<MonthUsage> {
    this.#ensureTables();
    return this.sql<
      MonthUsage[number]
    >`SELECT key_id, endpoint, day, count FROM usage_counts WHERE day LIKE ${`${month}-%`} AND count > 0 ORDER BY day, key_id, endpoint`;
  }

  async #scheduleFlush(userId: string) {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    this.#setMeta("user_id", userId);
    this.#setMeta("flush_pending", 1);
    await this.schedule(FLUSH_DELAY_SECONDS, "flush");
  }

  /** Writes changed counts, last-use times and the aggregate credit debit to D1 (scheduled; also callable). */
  async flush(): Promise<void> {
    this.#ensureTables();
    this.sql`DELETE FROM account_meta WHERE k = 'flush_pending'`;
    // Old tickets go here, not on every call (every admission schedules a flush).
    this.sql`DELETE FROM tickets WHERE at < ${Date.now() - TICKET_MS}`;
    this.#flushScheduled = false;
    const userId = this.#meta("user_id");
    if (!userId) return;
    const counts = this.sql<MonthUsage[number]>`SELECT key_id, endpoint, day, count FROM usage_counts WHERE dirty = 1`;
    const used = this.sql<{ key_id: string; at: number }>`SELECT key_id, max(last_at) AS at FROM usage_counts WHERE dirty = 1 GROUP BY key_id`;
    // The debit of this flush is fixed (amount and ref) before writing, so a retry writes the same row.
    let debit = this.#meta("flush_debit");
    // A negative pending debit (credits given back after a flush) is written as a positive entry.
    if (!debit && this.#pending() !== 0) {
      debit = JSON.stringify({ amount: this.#pending(), ref: `usage:${userId}:${crypto.randomUUID()}` });
      this.#setMeta("flush_debit", debit);
    }
    const d = debit ? (JSON.parse(debit) as { amount: number; ref: string }) : undefined;
    if (counts.length === 0 && used.length === 0 && !d) return;
    const db = primaryDb(guardedEnv(this.env));
    const now = Date.now();
    // One D1 batch (one transaction); each table is written by its owner's query.
    await batch(db, [
      ...counts.map((r) => upsertDailyCount(db, { userId, keyId: r.key_id, endpoint: r.endpoint, day: r.day, count: r.count })),
      ...used.map((u) => touchLastUsed(db, u.key_id, u.at)),
      ...(d
        ? [
            appendLedgerOnce(db, {
              userId,
              amount: -d.amount,
              reason: d.amount > 0 ? "usage beyond the monthly quota" : "credits given back: calls not served",
              ref: d.ref,
              createdAt: now,
            }),
          ]
        : []),
    ]);
    // Only what was written is clean: calls that arrived during the batch stay dirty.
    for (const r of counts)
      this.sql`UPDATE usage_counts SET dirty = 0 WHERE key_id = ${r.key_id} AND endpoint = ${r.endpoint} AND day = ${r.day} AND count = ${r.count}`;
    if (d) {
      this.#setMeta("pending_debit", this.#pending() - d.amount);
      this.sql`DELETE FROM account_meta WHERE k = 'flush_debit'`;
      // A balance read during the batch may predate the debit, which is no longer pending: drop it.
      this.#generation++;
      this.#balance = undefined;
    }
    const left = this.sql<{ n: number }>`SELECT count(*) AS n FROM usage_counts WHERE dirty = 1`[0].n;
    if (left > 0 || this.#pending() !== 0) await this.#scheduleFlush(userId);
  }
}
