/**
 * The alerts the account object fires as it counts: quota levels reached, credits running low, the
 * spend limit met. Each is recorded in the object's storage once per month, kind and level (a
 * repeat does nothing) and handed to the `sendAlerts` alarm, which delivers it (alerts.ts), so the
 * call that fired it waits for no mail and no D1. Part of the object (object.ts).
 */
import { guardedEnv } from "../db/guard";
import { utcDay } from "../lib/time";
import { deliverAlert } from "./alerts";
import type { AccountCache } from "./object-account";
import { quotaAlertsReached } from "./rules";
import type { AccountStore, AlertData, AlertKind } from "./store";

export class AlertBook {
  readonly #store: AccountStore;
  readonly #accounts: AccountCache;
  readonly #monthUsed: (month: string) => number;
  /** Alerts fired, as `month:kind:level` (mirrored from storage): the check on every count reads no storage. */
  #alerted: Set<string> | undefined;
  /** An alert fired since the last `takeDue`. */
  #due = false;

  constructor(store: AccountStore, accounts: AccountCache, monthUsed: (month: string) => number) {
    this.#store = store;
    this.#accounts = accounts;
    this.#monthUsed = monthUsed;
  }

  /**
   * After calls were counted: quota alerts the month's usage reached, and (when credits were just
   * spent) the low-credits alert. Synchronous, no storage read unless an alert is new.
   */
  usage(now: number, spentCredits: boolean): void {
    const account = this.#accounts.known;
    if (!account) return;
    const used = this.#monthUsed(utcDay(now).slice(0, 7));
    for (const pct of quotaAlertsReached(used, account.quota)) this.fire(now, "quota", pct, { used, quota: account.quota });
    if (spentCredits) this.credits(now);
  }

  /** The low-credits alert, when the account set a level and the credits left (as last read, less what is pending and held) are below it. */
  credits(now: number): void {
    const account = this.#accounts.known;
    const balance = this.#accounts.lastBalance;
    if (!account || account.lowCreditsBelow === null || balance === undefined) return;
    const left = balance - this.#store.state.pendingDebit - this.#store.jobsHeld().credits;
    if (left >= account.lowCreditsBelow) return;
    const month = utcDay(now).slice(0, 7);
    this.fire(now, "credits", account.lowCreditsBelow, {
      used: this.#monthUsed(month),
      quota: account.quota,
      balance: Math.max(0, left),
      spent: this.#store.monthSpend(month),
    });
  }

  /** An alert fired: recorded once per month, kind and level (a repeat does nothing). */
  fire(now: number, kind: AlertKind, level: number, data: AlertData): void {
    const month = utcDay(now).slice(0, 7);
    const id = `${month}:${kind}:${level}`;
    this.#alerted ??= new Set(this.#store.alerts().map((a) => `${a.month}:${a.kind}:${a.level}`));
    if (this.#alerted.has(id)) return;
    this.#alerted.add(id);
    if (this.#store.addAlert({ month, kind, level, at: now, data })) this.#due = true;
  }

  /** Whether an alert fired since the last time asked (then the object schedules `sendAlerts`). */
  takeDue(): boolean {
    const due = this.#due;
    this.#due = false;
    return due;
  }

  /**
   * Sends the alerts not sent yet: each recorded in D1, emailed in the account's language and
   * announced to its webhooks (`usage.threshold`), each once (deliverAlert is safe to repeat).
   * False when one failed: the rest wait for the next try.
   */
  async send(env: Env, userId: string): Promise<boolean> {
    for (const alert of this.#store.alerts().filter((a) => !a.sent)) {
      try {
        await deliverAlert(guardedEnv(env), userId, alert);
        this.#store.markAlertSent(alert);
      } catch {
        return false;
      }
    }
    return true;
  }
}
