import { Agent } from "agents";

/** Seconds between a first unflushed call and the flush to D1. */
export const FLUSH_DELAY_SECONDS = 60;
/** How long the plan and the D1 credit balance are trusted before being read again. */
const PLAN_TTL_MS = 60_000;
const BALANCE_TTL_MS = 5_000;

export type MonthUsage = { key_id: string; endpoint: string; day: string; count: number }[];
export type Admission = { ok: true; charged: boolean; day: string } | { ok: false };

/**
 * The per-account Durable Object (one per user, named by user id). A Durable Object handles one
 * event at a time, so its counts are exact under any concurrency.
 *
 * - Admission: every data call asks `admit` before it is served. Within the plan's monthly quota
 *   it is free; beyond, it spends 1 credit (balance = D1 ledger - debits not yet written); with none
 *   left it is refused. A call that then fails is given back with `release`.
 * - Usage: live counts per key, endpoint and UTC day in the object's own SQLite.
 * - Flush (alarm, FLUSH_DELAY_SECONDS after the first change): one D1 batch with the changed counts
 *   (absolute, so repeating a flush changes nothing), each key's last use, and one aggregate ledger
 *   debit for the credits spent since the last flush, written under a unique ref decided before the
 *   write, so a retried flush can neither lose nor double a debit.
 */
export class AccountAgent extends Agent<Env> {
  #ready = false;
  #plan: { quota: number; at: number } | undefined;
  #balance: { value: number; at: number } | undefined;
  /** Calls counted this month, kept in memory (rebuilt from storage when the object wakes). */
  #month: { month: string; used: number } | undefined;
  #flushScheduled = false;

  #ensureTables() {
    if (this.#ready) return;
    // last_at: the latest call counted in the row; the flush turns it into the key's last_used_at.
    this.sql`CREATE TABLE IF NOT EXISTS usage_counts (key_id TEXT NOT NULL, endpoint TEXT NOT NULL, day TEXT NOT NULL, count INTEGER NOT NULL, last_at INTEGER NOT NULL DEFAULT 0, dirty INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (key_id, endpoint, day))`;
    this.sql`CREATE TABLE IF NOT EXISTS account_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)`;
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

  async #quota(userId: string, now: number): Promise<number> {
    if (!this.#plan || now - this.#plan.at > PLAN_TTL_MS) {
      const row = await this.env.DB.prepare("SELECT p.monthly_quota AS quota FROM users u JOIN plans p ON p.id = u.plan WHERE u.id = ?")
        .bind(userId)
        .first<{ quota: number }>();
      this.#plan = { quota: row?.quota ?? 0, at: now };
    }
    return this.#plan.quota;
  }

  async #ledgerBalance(userId: string, now: number, fresh: boolean): Promise<number> {
    if (fresh || !this.#balance || now - this.#balance.at > BALANCE_TTL_MS) {
      const row = await this.env.DB.prepare("SELECT coalesce(sum(amount), 0) AS b FROM credit_ledger WHERE user_id = ?").bind(userId).first<{ b: number }>();
      this.#balance = { value: row?.b ?? 0, at: now };
    }
    return this.#balance.value;
  }

  /** Decides whether one more call may be served, and counts it if so. */
  async admit(userId: string, keyId: string, endpoint: string, now: number = Date.now()): Promise<Admission> {
    this.#ensureTables();
    const day = new Date(now).toISOString().slice(0, 10);
    const used = this.#monthUsed(day.slice(0, 7));
    let charged = false;
    if (used >= (await this.#quota(userId, now))) {
      let available = (await this.#ledgerBalance(userId, now, false)) - this.#pending();
      if (available < 1) available = (await this.#ledgerBalance(userId, now, true)) - this.#pending();
      if (available < 1) return { ok: false };
      this.#setMeta("pending_debit", this.#pending() + 1);
      charged = true;
    }
    this.sql`INSERT INTO usage_counts (key_id, endpoint, day, count, last_at) VALUES (${keyId}, ${endpoint}, ${day}, 1, ${now})
             ON CONFLICT (key_id, endpoint, day) DO UPDATE SET count = count + 1, last_at = max(last_at, excluded.last_at), dirty = 1`;
    this.#month!.used++;
    await this.#scheduleFlush(userId);
    return { ok: true, charged, day };
  }

  /** Gives back an admitted call that was not served successfully. */
  async release(keyId: string, endpoint: string, day: string, charged: boolean): Promise<void> {
    this.#ensureTables();
    this.sql`UPDATE usage_counts SET count = count - 1, dirty = 1 WHERE key_id = ${keyId} AND endpoint = ${endpoint} AND day = ${day} AND count > 0`;
    this.#month = undefined;
    if (charged) this.#setMeta("pending_debit", Math.max(0, this.#pending() - 1));
  }

  /** Forget cached plan and balance (after a payment, a grant or a plan change). */
  async refresh(): Promise<void> {
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
    return this.sql<MonthUsage[number]>`SELECT key_id, endpoint, day, count FROM usage_counts WHERE day LIKE ${`${month}-%`} AND count > 0 ORDER BY day, key_id, endpoint`;
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
    this.#flushScheduled = false;
    const userId = this.#meta("user_id");
    if (!userId) return;
    const counts = this.sql<MonthUsage[number]>`SELECT key_id, endpoint, day, count FROM usage_counts WHERE dirty = 1`;
    const used = this.sql<{ key_id: string; at: number }>`SELECT key_id, max(last_at) AS at FROM usage_counts WHERE dirty = 1 GROUP BY key_id`;
    // The debit of this flush is fixed (amount and ref) before writing, so a retry writes the same row.
    let debit = this.#meta("flush_debit");
    if (!debit && this.#pending() > 0) {
      debit = JSON.stringify({ amount: this.#pending(), ref: `usage:${userId}:${crypto.randomUUID()}` });
      this.#setMeta("flush_debit", debit);
    }
    const d = debit ? (JSON.parse(debit) as { amount: number; ref: string }) : undefined;
    if (counts.length === 0 && used.length === 0 && !d) return;
    const db = this.env.DB;
    const now = Date.now();
    await db.batch([
      ...counts.map((r) =>
        db
          .prepare(
            "INSERT INTO usage_daily (user_id, key_id, endpoint, day, count) VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, key_id, endpoint, day) DO UPDATE SET count = excluded.count",
          )
          .bind(userId, r.key_id, r.endpoint, r.day, r.count),
      ),
      ...used.map((u) => db.prepare("UPDATE api_keys SET last_used_at = max(coalesce(last_used_at, 0), ?) WHERE id = ?").bind(u.at, u.key_id)),
      ...(d
        ? [db.prepare("INSERT OR IGNORE INTO credit_ledger (user_id, amount, reason, ref, created_at) VALUES (?, ?, 'usage beyond the monthly quota', ?, ?)").bind(userId, -d.amount, d.ref, now)]
        : []),
    ]);
    // Only what was written is clean: calls that arrived during the batch stay dirty.
    for (const r of counts) this.sql`UPDATE usage_counts SET dirty = 0 WHERE key_id = ${r.key_id} AND endpoint = ${r.endpoint} AND day = ${r.day} AND count = ${r.count}`;
    if (d) {
      this.#setMeta("pending_debit", Math.max(0, this.#pending() - d.amount));
      this.sql`DELETE FROM account_meta WHERE k = 'flush_debit'`;
      this.#balance = undefined;
    }
    const left = this.sql<{ n: number }>`SELECT count(*) AS n FROM usage_counts WHERE dirty = 1`[0].n;
    if (left > 0 || this.#pending() > 0) await this.#scheduleFlush(userId);
  }
}
