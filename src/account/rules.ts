/**
 * The account's money rules, as plain functions (README.md in this folder has the glossary): what a
 * call costs, what a lease may take, what comes back when a lease ends unused. The account object
 * (object.ts) decides with these and nothing else, so the rules are tested here alone (rules.test.ts).
 *
 * The invariant they keep: credits spent = calls served beyond the monthly quota.
 */

/** A lease takes at most this many calls. */
export const LEASE_MAX_CALLS = 100;
/** A lease takes at most this share of what is left of the quota, so the last calls are admitted one by one. */
const LEASE_SHARE = 20;
/** Below this a lease is not worth its settle: calls are admitted one by one. */
const LEASE_MIN_CALLS = 5;

/** What the account has used when `calls` more calls ask to be admitted. */
export type Counts = {
  /** Calls asking now: 1, or a batch's items (admitted whole or not at all). */
  calls: number;
  /** The plan's monthly quota. */
  quota: number;
  /** Calls counted this month. */
  used: number;
  /** Calls reserved by leases not yet settled: counted as used until they are. */
  reserved: number;
};

/**
 * How `calls` more calls are paid: free while the quota (less what leases reserve) lasts, one
 * credit each beyond it. `owed`: the credits among them spent only because of leases'
 * reservations (free without them); they come back if those leases end with calls unused
 * (`creditsBack`), so reservations never make credits go.
 */
export function priceCalls({ calls, quota, used, reserved }: Counts): { free: number; credits: number; owed: number } {
  const free = Math.min(calls, Math.max(0, quota - used - reserved));
  const credits = calls - free;
  const freeWithoutLeases = Math.min(calls, Math.max(0, quota - used));
  return { free, credits, owed: Math.min(credits, freeWithoutLeases - free) };
}

/** A lease ended with `unused` calls not served: credits owed to reservations (at most `owed`) come back. */
export function creditsBack(unused: number, owed: number): number {
  return Math.max(0, Math.min(unused, owed));
}

/**
 * The lease an admission of one free call may bring back, sized on what was `left` of the quota
 * before it (after reservations): 0 means none.
 */
export function leaseSize(left: number): number {
  const calls = Math.min(LEASE_MAX_CALLS, Math.floor((left - 1) / LEASE_SHARE));
  return calls < LEASE_MIN_CALLS ? 0 : calls;
}

/**
 * `n` more rows of a bulk job done: at most what is left of its reservation; free while its free
 * rows last (the rows reserved minus the credits reserved at acceptance), then one credit each. So
 * a job spends exactly the credits its done rows beyond the quota cost, never more than it reserved.
 */
export function priceJobRows(job: { rows: number; credits: number; rowsDone: number }, n: number): { rows: number; credits: number } {
  const rows = Math.max(0, Math.min(n, job.rows - job.rowsDone));
  const freeLeft = Math.max(0, job.rows - job.credits - job.rowsDone);
  return { rows, credits: rows - Math.min(rows, freeLeft) };
}

/** How many days the request log keeps, per plan (GET /billing/plans says it as `request_log_days`): longer on larger plans. */
const REQUEST_LOG_DAYS: Record<string, number> = { free: 7, starter: 14, pro: 30, business: 90 };
export const requestLogDays = (plan: string): number => REQUEST_LOG_DAYS[plan] ?? 7;

/** The shares of the monthly quota (percent) whose crossing sends an alert, once a month each. */
export const QUOTA_ALERTS = [80, 100] as const;

/** Which quota alerts `used` calls of `quota` have reached (a batch may cross both at once). */
export function quotaAlertsReached(used: number, quota: number): number[] {
  return quota > 0 ? QUOTA_ALERTS.filter((pct) => used * 100 >= quota * pct) : [];
}

/**
 * Whether `credits` more credits beyond the quota would pass the account's monthly spend limit,
 * `spent` being those already spent this month (and held by running jobs). No limit: never.
 */
export function passesSpendLimit(limit: number | null, spent: number, credits: number): boolean {
  return limit !== null && credits > 0 && spent + credits > limit;
}
