import { Agent } from "agents";

/** Seconds between a first unflushed call and the flush to D1. */
export const FLUSH_DELAY_SECONDS = 60;

export type MonthUsage = { key_id: string; endpoint: string; day: string; count: number }[];

/**
 * The per-account Durable Object (one per user, named by user id). It keeps the exact live usage
 * counts (per key, endpoint and UTC day) in its own SQLite storage: a Durable Object handles one
 * event at a time, so concurrent calls never lose an increment. On an alarm it flushes the changed
 * counts to D1 in one batch (absolute values, so a repeated flush changes nothing) together with
 * each key's last use: D1 sees one write batch per account per flush, not one per call.
 */
export class AccountAgent extends Agent<Env> {
  #ready = false;

  #ensureTables() {
    if (this.#ready) return;
    this.sql`CREATE TABLE IF NOT EXISTS usage_counts (key_id TEXT NOT NULL, endpoint TEXT NOT NULL, day TEXT NOT NULL, count INTEGER NOT NULL, dirty INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (key_id, endpoint, day))`;
    this.sql`CREATE TABLE IF NOT EXISTS key_last_used (key_id TEXT PRIMARY KEY, at INTEGER NOT NULL, dirty INTEGER NOT NULL DEFAULT 1)`;
    this.sql`CREATE TABLE IF NOT EXISTS account_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)`;
    this.#ready = true;
  }

  /** Counts one successful data call. */
  async record(userId: string, keyId: string, endpoint: string, at: number = Date.now()): Promise<void> {
    this.#ensureTables();
    const day = new Date(at).toISOString().slice(0, 10);
    this.sql`INSERT INTO usage_counts (key_id, endpoint, day, count) VALUES (${keyId}, ${endpoint}, ${day}, 1)
             ON CONFLICT (key_id, endpoint, day) DO UPDATE SET count = count + 1, dirty = 1`;
    this.sql`INSERT INTO key_last_used (key_id, at) VALUES (${keyId}, ${at})
             ON CONFLICT (key_id) DO UPDATE SET at = max(at, excluded.at), dirty = 1`;
    const pending = this.sql<{ v: string }>`SELECT v FROM account_meta WHERE k = 'flush_pending'`;
    if (pending.length === 0) {
      this.sql`INSERT OR REPLACE INTO account_meta (k, v) VALUES ('user_id', ${userId}), ('flush_pending', '1')`;
      await this.schedule(FLUSH_DELAY_SECONDS, "flush");
    }
  }

  /** Live counts of one month (`YYYY-MM`), flushed or not. */
  async usage(month: string): Promise<MonthUsage> {
    this.#ensureTables();
    return this.sql<MonthUsage[number]>`SELECT key_id, endpoint, day, count FROM usage_counts WHERE day LIKE ${`${month}-%`} ORDER BY day, key_id, endpoint`;
  }

  /** Writes changed counts and last-use times to D1 (scheduled; also callable). */
  async flush(): Promise<void> {
    this.#ensureTables();
    this.sql`DELETE FROM account_meta WHERE k = 'flush_pending'`;
    const userId = this.sql<{ v: string }>`SELECT v FROM account_meta WHERE k = 'user_id'`[0]?.v;
    const counts = this.sql<MonthUsage[number]>`SELECT key_id, endpoint, day, count FROM usage_counts WHERE dirty = 1`;
    const used = this.sql<{ key_id: string; at: number }>`SELECT key_id, at FROM key_last_used WHERE dirty = 1`;
    if (!userId || (counts.length === 0 && used.length === 0)) return;
    const db = this.env.DB;
    await db.batch([
      ...counts.map((r) =>
        db
          .prepare(
            "INSERT INTO usage_daily (user_id, key_id, endpoint, day, count) VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id, key_id, endpoint, day) DO UPDATE SET count = max(count, excluded.count)",
          )
          .bind(userId, r.key_id, r.endpoint, r.day, r.count),
      ),
      ...used.map((u) => db.prepare("UPDATE api_keys SET last_used_at = max(coalesce(last_used_at, 0), ?) WHERE id = ?").bind(u.at, u.key_id)),
    ]);
    // Only what was written is clean: calls that arrived during the batch stay dirty.
    for (const r of counts) this.sql`UPDATE usage_counts SET dirty = 0 WHERE key_id = ${r.key_id} AND endpoint = ${r.endpoint} AND day = ${r.day} AND count = ${r.count}`;
    for (const u of used) this.sql`UPDATE key_last_used SET dirty = 0 WHERE key_id = ${u.key_id} AND at = ${u.at}`;
    const left = this.sql<{ n: number }>`SELECT (SELECT count(*) FROM usage_counts WHERE dirty = 1) + (SELECT count(*) FROM key_last_used WHERE dirty = 1) AS n`[0].n;
    if (left > 0) {
      this.sql`INSERT OR REPLACE INTO account_meta (k, v) VALUES ('flush_pending', '1')`;
      await this.schedule(FLUSH_DELAY_SECONDS, "flush");
    }
  }
}
