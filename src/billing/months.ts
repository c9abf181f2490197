/** Subscription periods in calendar months (UTC). Pure: unit-tested beside it (months.test.ts). */

/** `n` calendar months after `ms`, the day clamped to the target month's last day (Jan 31 + 1 = Feb 28/29). */
export function addMonths(ms: number, n: number): number {
  const d = new Date(ms);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  return target.getTime();
}

export const addMonth = (ms: number): number => addMonths(ms, 1);
