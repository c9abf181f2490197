/**
 * What the account object knows of its account from D1: plan, status and the account's own
 * settings (a minute old at most), and the credit balance (5 s). Each is read once at a time,
 * however many admissions wait on it; a read overtaken by `forget` (a payment, a grant, a plan
 * change) or by a flush's debit is dropped instead of cached. Part of the object (object.ts).
 */
import { findUserById } from "../auth/queries";
import { primaryDb } from "../db/client";
import { guardedEnv } from "../db/guard";
import { findAccountSettings, findPlan, ledgerBalance } from "./queries";

/** How long the plan and the D1 credit balance are trusted before being read again. */
const PLAN_TTL_MS = 60_000;
const BALANCE_TTL_MS = 5_000;

/** The account as admission knows it: plan, status and the account's own settings. */
export type Account = { plan: string; quota: number; suspended: boolean; spendLimit: number | null; lowCreditsBelow: number | null; at: number };

export class AccountCache {
  readonly #env: Env;
  readonly #userId: string;
  #plan: Account | undefined;
  #balance: { value: number; at: number } | undefined;
  /**
   * Bumped by `forget` and by a flush's debit: a D1 read started before it answers with values older
   * than what the object now knows, so its answer is dropped instead of cached.
   */
  #generation = 0;
  /** The plan read under way, shared by every admission that needs it (one D1 read at a time). */
  #planLoad: Promise<void> | undefined;
  #balanceLoad: Promise<void> | undefined;

  constructor(env: Env, userId: string) {
    this.#env = env;
    this.#userId = userId;
  }

  /** The account if known and less than a minute old. */
  fresh(now: number): Account | undefined {
    return this.#plan && now - this.#plan.at <= PLAN_TTL_MS ? this.#plan : undefined;
  }

  /** The account as last read, however old (the alerts' check reads nothing). */
  get known(): Account | undefined {
    return this.#plan;
  }

  /** The account, read again first when not fresh. */
  async read(now: number): Promise<Account | undefined> {
    if (!this.fresh(now)) await this.load(now);
    return this.fresh(now);
  }

  /** Reads plan, status and settings again; a read overtaken by `forget` is dropped. */
  load(now: number): Promise<void> {
    this.#planLoad ??= (async () => {
      const generation = this.#generation;
      try {
        const db = primaryDb(guardedEnv(this.#env));
        const [user, settings] = await Promise.all([findUserById(db, this.#userId), findAccountSettings(db, this.#userId)]);
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
  balance(now: number, since?: number): number | undefined {
    const b = this.#balance;
    return b && now - b.at <= BALANCE_TTL_MS && (since === undefined || b.at >= since) ? b.value : undefined;
  }

  /** The D1 credit balance as last read, however old. */
  get lastBalance(): number | undefined {
    return this.#balance?.value;
  }

  /** Reads the D1 credit balance again; a read overtaken by `forget` or a flush's debit is dropped. */
  loadBalance(now: number): Promise<void> {
    this.#balanceLoad ??= (async () => {
      const generation = this.#generation;
      try {
        const value = await ledgerBalance(primaryDb(guardedEnv(this.#env)), this.#userId);
        if (generation === this.#generation) this.#balance = { value, at: now };
      } finally {
        this.#balanceLoad = undefined;
      }
    })();
    return this.#balanceLoad;
  }

  /** Forget plan, status and balance (the account changed). */
  forget(): void {
    this.#generation++;
    this.#plan = undefined;
    this.#balance = undefined;
  }

  /** A debit reached the ledger: a balance read during its write may predate it, so it is dropped. */
  debited(): void {
    this.#generation++;
    this.#balance = undefined;
  }
}
