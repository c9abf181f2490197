/**
 * The account object's own SQLite (not D1): one typed state row, usage counts, leases out, tickets
 * and recently revoked keys. Only the object (object.ts and its parts, object-*.ts) uses it; every statement of the object is here.
 */

type Value = string | number | boolean | null;
/** The Agent's `sql` tagged template. */
export type Sql = <T = Record<string, Value>>(strings: TemplateStringsArray, ...values: Value[]) => T[];

/** Credits written to D1 by one flush: decided (amount and ref) before the write, so a retry writes the same entry. */
export type FlushDebit = { amount: number; ref: string };

/** The object's state, one row. */
export type State = {
  /** Credits spent and not yet written to the D1 ledger (a flush in progress included); below zero when given back after a flush. */
  pendingDebit: number;
  /** Credits spent only because of leases' reservations: owed back if those leases end unused (rules.ts). */
  owedToReservations: number;
  /** The debit the flush under way writes, if any. */
  flushDebit: FlushDebit | null;
  /** A flush alarm is set. */
  flushScheduled: boolean;
};

/** Calls counted on one key, endpoint and UTC day. */
export type Counted = { keyId: string; endpoint: string; day: string; calls: number; credits: number };
export type MonthUsage = { key_id: string; endpoint: string; day: string; count: number }[];
/** What an isolate served under a lease, per key, endpoint and UTC day; `origin`: that of the row's latest call (`last_at`), if it had one. */
export type LeaseCounts = { key_id: string; endpoint: string; day: string; count: number; last_at: number; origin?: string | null }[];

/** A job's reservation: `rows` and `credits` held at acceptance; `credits` falls to what was spent when it ends. */
export type JobReservation = {
  id: string;
  keyId: string;
  endpoint: string;
  rows: number;
  credits: number;
  rowsDone: number;
  creditsSpent: number;
  ended: boolean;
  written: boolean;
};
type JobRow = {
  id: string;
  key_id: string;
  endpoint: string;
  rows: number;
  credits: number;
  rows_done: number;
  credits_spent: number;
  ended: number;
  written: number;
};
const jobOf = (r: JobRow): JobReservation => ({
  id: r.id,
  keyId: r.key_id,
  endpoint: r.endpoint,
  rows: r.rows,
  credits: r.credits,
  rowsDone: r.rows_done,
  creditsSpent: r.credits_spent,
  ended: r.ended === 1,
  written: r.written === 1,
});

export type AlertKind = "quota" | "credits" | "spend_limit";
/** An alert that fired: `level` is 80 or 100 (percent of the quota), the credit level crossed, or the spend limit reached. */
export type FiredAlert = { month: string; kind: AlertKind; level: number; at: number; data: AlertData; sent: boolean };
/** What the account stood at when an alert fired. */
export type AlertData = { used: number; quota: number; balance?: number; spent?: number; limit?: number };
type AlertRow = { month: string; kind: string; level: number; at: number; data: string; sent: number };

type StateRow = { pending_debit: number; owed: number; flush_amount: number | null; flush_ref: string | null; flush_scheduled: number };

export class AccountStore {
  #state: State;

  constructor(private readonly sql: Sql) {
    // last_at: the latest call counted in the row; the flush turns it into the key's last_used_at.
    sql`CREATE TABLE IF NOT EXISTS usage_counts (key_id TEXT NOT NULL, endpoint TEXT NOT NULL, day TEXT NOT NULL, count INTEGER NOT NULL, last_at INTEGER NOT NULL DEFAULT 0, dirty INTEGER NOT NULL DEFAULT 1, PRIMARY KEY (key_id, endpoint, day))`;
    sql`CREATE TABLE IF NOT EXISTS state (id INTEGER PRIMARY KEY CHECK (id = 1), pending_debit INTEGER NOT NULL DEFAULT 0, owed INTEGER NOT NULL DEFAULT 0, flush_amount INTEGER, flush_ref TEXT, flush_scheduled INTEGER NOT NULL DEFAULT 0)`;
    sql`CREATE TABLE IF NOT EXISTS leases (id TEXT PRIMARY KEY, calls INTEGER NOT NULL, expires_at INTEGER NOT NULL)`;
    sql`CREATE TABLE IF NOT EXISTS revoked_keys (key_id TEXT PRIMARY KEY, at INTEGER NOT NULL)`;
    // Each key's latest call and the origin it came from (null: none said), for the flush to write
    // as the key's last use: a table of its own, so objects made before it need no column added.
    sql`CREATE TABLE IF NOT EXISTS key_last_use (key_id TEXT PRIMARY KEY, at INTEGER NOT NULL, origin TEXT)`;
    // Tickets of recent admissions and give-backs: what each counted, and whether it was given back.
    sql`CREATE TABLE IF NOT EXISTS tickets (id TEXT PRIMARY KEY, key_id TEXT NOT NULL, endpoint TEXT NOT NULL, day TEXT NOT NULL, calls INTEGER NOT NULL, credits INTEGER NOT NULL, done INTEGER NOT NULL, at INTEGER NOT NULL)`;
    // Bulk jobs' reservations (src/jobs): rows and credits held from acceptance until the job ends;
    // `written`: its ledger entry is in D1.
    sql`CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, key_id TEXT NOT NULL, endpoint TEXT NOT NULL, rows INTEGER NOT NULL, credits INTEGER NOT NULL, rows_done INTEGER NOT NULL DEFAULT 0, credits_spent INTEGER NOT NULL DEFAULT 0, ended INTEGER NOT NULL DEFAULT 0, written INTEGER NOT NULL DEFAULT 0)`;
    // The chunks of a job charged, kept as long as the job (not as tickets, which go after minutes):
    // a chunk delivered again hours later, or re-sent by the jobs' watchdog, is still charged once.
    sql`CREATE TABLE IF NOT EXISTS job_chunks (job_id TEXT NOT NULL, chunk INTEGER NOT NULL, rows INTEGER NOT NULL, PRIMARY KEY (job_id, chunk))`;
    // Credits spent beyond the quota per UTC month (calls' and jobs' rows'), less those given back:
    // what the account's spend limit is checked against.
    sql`CREATE TABLE IF NOT EXISTS month_spend (month TEXT PRIMARY KEY, credits INTEGER NOT NULL)`;
    // Alerts that fired (once per month, kind and level), and whether they were handed over for sending.
    sql`CREATE TABLE IF NOT EXISTS alerts (month TEXT NOT NULL, kind TEXT NOT NULL, level INTEGER NOT NULL, at INTEGER NOT NULL, data TEXT NOT NULL, sent INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (month, kind, level))`;
    sql`INSERT OR IGNORE INTO state (id) VALUES (1)`;
    this.#adoptMetaTable();
    const row = sql<StateRow>`SELECT pending_debit, owed, flush_amount, flush_ref, flush_scheduled FROM state`[0];
    this.#state = {
      pendingDebit: row.pending_debit,
      owedToReservations: row.owed,
      flushDebit: row.flush_ref === null ? null : { amount: row.flush_amount ?? 0, ref: row.flush_ref },
      flushScheduled: row.flush_scheduled === 1,
    };
  }

  /**
   * Objects written before the state row kept it as text in `account_meta` (`pending_debit`,
   * `reservation_debits`, `flush_debit` as JSON, `flush_pending`): taken over once, then dropped,
   * so no debit they hold is lost.
   */
  #adoptMetaTable() {
    const exists = this.sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'account_meta'`[0].n > 0;
    if (!exists) return;
    const meta = new Map(this.sql<{ k: string; v: string }>`SELECT k, v FROM account_meta`.map((r) => [r.k, r.v]));
    const debit = meta.get("flush_debit") ? (JSON.parse(meta.get("flush_debit") as string) as FlushDebit) : null;
    this.sql`UPDATE state SET pending_debit = ${Number(meta.get("pending_debit") ?? 0)}, owed = ${Number(meta.get("reservation_debits") ?? 0)},
             flush_amount = ${debit?.amount ?? null}, flush_ref = ${debit?.ref ?? null}, flush_scheduled = ${meta.has("flush_pending") ? 1 : 0}`;
    this.sql`DROP TABLE account_meta`;
  }

  get state(): Readonly<State> {
    return this.#state;
  }

  setState(change: Partial<State>): void {
    const s = { ...this.#state, ...change };
    this.sql`UPDATE state SET pending_debit = ${s.pendingDebit}, owed = ${s.owedToReservations}, flush_amount = ${s.flushDebit?.amount ?? null},
             flush_ref = ${s.flushDebit?.ref ?? null}, flush_scheduled = ${s.flushScheduled ? 1 : 0}`;
    this.#state = s;
  }

  // Usage counts

  /** `origin`: where the call at `at` came from; undefined: not known (a job's rows), which keeps what is known. */
  count(keyId: string, endpoint: string, day: string, calls: number, at: number, origin?: string | null): void {
    this.sql`INSERT INTO usage_counts (key_id, endpoint, day, count, last_at) VALUES (${keyId}, ${endpoint}, ${day}, ${calls}, ${at})
             ON CONFLICT (key_id, endpoint, day) DO UPDATE SET count = count + excluded.count, last_at = max(last_at, excluded.last_at), dirty = 1`;
    if (origin === undefined) return;
    this.sql`INSERT INTO key_last_use (key_id, at, origin) VALUES (${keyId}, ${at}, ${origin})
             ON CONFLICT (key_id) DO UPDATE SET origin = CASE WHEN excluded.at >= at THEN excluded.origin ELSE origin END, at = max(at, excluded.at)`;
  }

  uncount(keyId: string, endpoint: string, day: string, calls: number): void {
    this
      .sql`UPDATE usage_counts SET count = max(0, count - ${calls}), dirty = 1 WHERE key_id = ${keyId} AND endpoint = ${endpoint} AND day = ${day} AND count > 0`;
  }

  monthTotal(month: string): number {
    return this.sql<{ n: number }>`SELECT coalesce(sum(count), 0) AS n FROM usage_counts WHERE day LIKE ${`${month}-%`}`[0].n;
  }

  usage(month: string): MonthUsage {
    return this.sql<
      MonthUsage[number]
    >`SELECT key_id, endpoint, day, count FROM usage_counts WHERE day LIKE ${`${month}-%`} AND count > 0 ORDER BY day, key_id, endpoint`;
  }

  /** Counts changed since the last flush, and each key's latest call among them, with the origin of its latest call. */
  unflushed(): { counts: MonthUsage; lastUse: { key_id: string; at: number; origin: string | null }[] } {
    return {
      counts: this.sql<MonthUsage[number]>`SELECT key_id, endpoint, day, count FROM usage_counts WHERE dirty = 1`,
      lastUse: this.sql<{ key_id: string; at: number; origin: string | null }>`SELECT u.key_id, max(u.last_at) AS at, k.origin
        FROM usage_counts u LEFT JOIN key_last_use k ON k.key_id = u.key_id WHERE u.dirty = 1 GROUP BY u.key_id`,
    };
  }

  /** Only what was written is clean: a row counted again since (another count) stays dirty. */
  flushed(counts: MonthUsage): void {
    for (const r of counts)
      this.sql`UPDATE usage_counts SET dirty = 0 WHERE key_id = ${r.key_id} AND endpoint = ${r.endpoint} AND day = ${r.day} AND count = ${r.count}`;
  }

  hasUnflushed(): boolean {
    return this.sql<{ n: number }>`SELECT count(*) AS n FROM usage_counts WHERE dirty = 1`[0].n > 0;
  }

  // Leases out

  addLease(id: string, calls: number, expiresAt: number): void {
    this.sql`INSERT INTO leases (id, calls, expires_at) VALUES (${id}, ${calls}, ${expiresAt})`;
  }

  leaseCalls(id: string): number | undefined {
    return this.sql<{ calls: number }>`SELECT calls FROM leases WHERE id = ${id}`[0]?.calls;
  }

  expiredLeases(now: number): { id: string; calls: number }[] {
    return this.sql<{ id: string; calls: number }>`SELECT id, calls FROM leases WHERE expires_at <= ${now}`;
  }

  deleteLease(id: string): void {
    this.sql`DELETE FROM leases WHERE id = ${id}`;
  }

  reservedCalls(): number {
    return this.sql<{ n: number }>`SELECT coalesce(sum(calls), 0) AS n FROM leases`[0].n;
  }

  // Tickets

  remember(ticket: string, c: Counted, done: boolean, at: number): void {
    this
      .sql`INSERT OR REPLACE INTO tickets (id, key_id, endpoint, day, calls, credits, done, at) VALUES (${ticket}, ${c.keyId}, ${c.endpoint}, ${c.day}, ${c.calls}, ${c.credits}, ${done ? 1 : 0}, ${at})`;
  }

  ticket(ticket: string): (Counted & { done: boolean }) | undefined {
    const row = this.sql<{
      key_id: string;
      endpoint: string;
      day: string;
      calls: number;
      credits: number;
      done: number;
    }>`SELECT key_id, endpoint, day, calls, credits, done FROM tickets WHERE id = ${ticket}`[0];
    return row && { keyId: row.key_id, endpoint: row.endpoint, day: row.day, calls: row.calls, credits: row.credits, done: row.done === 1 };
  }

  markDone(ticket: string): void {
    this.sql`UPDATE tickets SET done = 1 WHERE id = ${ticket}`;
  }

  forgetTicketsBefore(at: number): void {
    this.sql`DELETE FROM tickets WHERE at < ${at}`;
  }

  // Jobs' reservations

  addJob(j: { id: string; keyId: string; endpoint: string; rows: number; credits: number }): void {
    this.sql`INSERT OR IGNORE INTO jobs (id, key_id, endpoint, rows, credits) VALUES (${j.id}, ${j.keyId}, ${j.endpoint}, ${j.rows}, ${j.credits})`;
  }

  job(id: string): JobReservation | undefined {
    return this.sql<JobRow>`SELECT id, key_id, endpoint, rows, credits, rows_done, credits_spent, ended, written FROM jobs WHERE id = ${id}`.map(jobOf)[0];
  }

  setJob(j: JobReservation): void {
    this
      .sql`UPDATE jobs SET rows_done = ${j.rowsDone}, credits_spent = ${j.creditsSpent}, credits = ${j.credits}, ended = ${j.ended ? 1 : 0}, written = ${j.written ? 1 : 0} WHERE id = ${j.id}`;
  }

  /** The rows a job's chunk was charged for, if it was. */
  jobChunk(jobId: string, chunk: number): number | undefined {
    return this.sql<{ rows: number }>`SELECT rows FROM job_chunks WHERE job_id = ${jobId} AND chunk = ${chunk}`[0]?.rows;
  }

  addJobChunk(jobId: string, chunk: number, rows: number): void {
    this.sql`INSERT OR IGNORE INTO job_chunks (job_id, chunk, rows) VALUES (${jobId}, ${chunk}, ${rows})`;
  }

  /** A job past its keeping days: its reservation and chunks go, once its ledger entry is written (false: not yet). */
  forgetJob(id: string): boolean {
    const job = this.job(id);
    if (job && !(job.ended && job.written)) return false;
    this.sql`DELETE FROM job_chunks WHERE job_id = ${id}`;
    this.sql`DELETE FROM jobs WHERE id = ${id}`;
    return true;
  }

  /**
   * Rows still reserved by jobs running (counted as used by the quota), credits held by jobs whose
   * entry is not in the ledger yet (and of those, spent), and credits running jobs reserved and have
   * not spent yet (held against the spend limit).
   */
  jobsHeld(): { rows: number; credits: number; spent: number; unspent: number } {
    return this.sql<{ rows: number; credits: number; spent: number; unspent: number }>`SELECT
      coalesce(sum(CASE WHEN ended = 0 THEN rows - rows_done ELSE 0 END), 0) AS rows,
      coalesce(sum(CASE WHEN written = 0 THEN credits ELSE 0 END), 0) AS credits,
      coalesce(sum(CASE WHEN written = 0 THEN credits_spent ELSE 0 END), 0) AS spent,
      coalesce(sum(CASE WHEN ended = 0 THEN max(0, credits - credits_spent) ELSE 0 END), 0) AS unspent FROM jobs`[0];
  }

  /** Jobs ended whose ledger entry is still to be written. */
  unwrittenJobs(): JobReservation[] {
    return this.sql<JobRow>`SELECT id, key_id, endpoint, rows, credits, rows_done, credits_spent, ended, written FROM jobs WHERE ended = 1 AND written = 0`.map(
      jobOf,
    );
  }

  // Credits spent per month (the spend limit)

  monthSpend(month: string): number {
    return this.sql<{ credits: number }>`SELECT credits FROM month_spend WHERE month = ${month}`[0]?.credits ?? 0;
  }

  /** `credits` more spent in `month` (negative: given back; never below zero). */
  addMonthSpend(month: string, credits: number): void {
    if (credits === 0) return;
    this.sql`INSERT INTO month_spend (month, credits) VALUES (${month}, max(0, ${credits}))
             ON CONFLICT (month) DO UPDATE SET credits = max(0, credits + ${credits})`;
  }

  // Alerts

  /** Records an alert once per month, kind and level; true when it is new. */
  addAlert(a: Omit<FiredAlert, "sent">): boolean {
    this.sql`INSERT OR IGNORE INTO alerts (month, kind, level, at, data) VALUES (${a.month}, ${a.kind}, ${a.level}, ${a.at}, ${JSON.stringify(a.data)})`;
    return this.sql<{ n: number }>`SELECT changes() AS n`[0].n === 1;
  }

  /** The alerts of `month` (or every month kept), sent or not. */
  alerts(month?: string): FiredAlert[] {
    const rows = month
      ? this.sql<AlertRow>`SELECT month, kind, level, at, data, sent FROM alerts WHERE month = ${month}`
      : this.sql<AlertRow>`SELECT month, kind, level, at, data, sent FROM alerts`;
    return rows.map((r) => ({ month: r.month, kind: r.kind as AlertKind, level: r.level, at: r.at, data: JSON.parse(r.data), sent: r.sent === 1 }));
  }

  markAlertSent(a: { month: string; kind: string; level: number }): void {
    this.sql`UPDATE alerts SET sent = 1 WHERE month = ${a.month} AND kind = ${a.kind} AND level = ${a.level}`;
  }

  /** Alerts of months before `month` that were sent are forgotten (D1's usage_alerts keeps them). */
  forgetAlertsBefore(month: string): void {
    this.sql`DELETE FROM alerts WHERE month < ${month} AND sent = 1`;
    this.sql`DELETE FROM month_spend WHERE month < ${month}`;
  }

  // Revoked keys

  revoked(): Map<string, number> {
    return new Map(this.sql<{ key_id: string; at: number }>`SELECT key_id, at FROM revoked_keys`.map((r) => [r.key_id, r.at]));
  }

  addRevoked(keyId: string, at: number): void {
    this.sql`INSERT OR REPLACE INTO revoked_keys (key_id, at) VALUES (${keyId}, ${at})`;
  }

  deleteRevoked(keyId: string): void {
    this.sql`DELETE FROM revoked_keys WHERE key_id = ${keyId}`;
  }
}
