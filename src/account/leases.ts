/**
 * Admission leases held by this isolate (granted by the account object, object.ts).
 * While a lease is usable, a call inside the quota is admitted here, with no round trip; its count
 * is kept here until the lease is settled: when used up, when its time is over (a timer kept alive
 * by `waitUntil`), or when the account's usage is read.
 */
import { utcDay, wakeableDelay } from "../lib/time";
import type { Lease, LeaseCounts } from "./object";

type Row = LeaseCounts[number];

export class HeldLease {
  readonly #rows = new Map<string, Row>();
  #left: number;
  #until: number;
  #settling: Promise<void> | undefined;
  /** Ends the wait of `expiry` early (set while it waits). */
  #wake: (() => void) | undefined;

  constructor(
    readonly userId: string,
    readonly lease: Lease,
    now: number,
  ) {
    this.#left = lease.calls;
    this.#until = now + lease.ms;
  }

  /** A key revoked by the time the lease was granted: the isolate refuses it, as the account object would. */
  refuses(keyId: string): boolean {
    return this.lease.revoked.includes(keyId);
  }

  usable(now: number): boolean {
    return this.#settling === undefined && this.#left > 0 && now < this.#until;
  }

  /** Admits one call under the lease (`origin`: where it came from); the returned function gives it back (false once the lease is settled). */
  take(keyId: string, endpoint: string, now: number, origin: string | null = null): () => boolean {
    const day = utcDay(now);
    const id = `${keyId}\u0000${endpoint}\u0000${day}`;
    let row = this.#rows.get(id);
    if (!row) {
      row = { key_id: keyId, endpoint, day, count: 0, last_at: now };
      this.#rows.set(id, row);
    }
    row.count++;
    if (now >= row.last_at) row.origin = origin;
    row.last_at = Math.max(row.last_at, now);
    this.#left--;
    return () => {
      if (this.#settling) return false;
      row.count--;
      this.#left++;
      return true;
    };
  }

  get exhausted(): boolean {
    return this.#left <= 0;
  }

  /** The settle in flight or done (undefined while the lease is held). */
  get settled(): Promise<void> | undefined {
    return this.#settling;
  }

  /** Settles once: later calls return the same promise. */
  settle(send: (counts: LeaseCounts) => Promise<void>): Promise<void> {
    this.#settling ??= send([...this.#rows.values()].filter((r) => r.count > 0));
    return this.#settling;
  }

  /** Resolves when the lease's time (`ms`) is over, or when `end` ends it before. */
  expiry(ms: number): Promise<void> {
    const delay = wakeableDelay(ms);
    this.#wake = delay.wake;
    const mine = running.get(this.userId) ?? new Set<HeldLease>();
    running.set(this.userId, mine.add(this));
    return delay.done.finally(() => {
      mine.delete(this);
      if (mine.size === 0 && running.get(this.userId) === mine) running.delete(this.userId);
    });
  }

  /**
   * Ends the lease's time now: no more calls under it, and its timer settles it as at its expiry.
   * Only from the request that took the lease (lib/time.ts wakeableDelay): the fault scenarios'
   * drain, which reaches the end of every lease without waiting out its second.
   */
  end(): void {
    this.#until = 0;
    this.#wake?.();
  }
}

/** The lease this isolate currently uses, per account. */
const held = new Map<string, HeldLease>();
/**
 * Leases whose time is still running, per account: the held one, and those settled early (used up,
 * a usage read, a refusal) whose timer still waits out its second.
 */
const running = new Map<string, Set<HeldLease>>();

/** Ends the time of every lease of the account still running (HeldLease.end); see `end` for who may. */
export function endLeases(userId: string): void {
  for (const lease of running.get(userId) ?? []) lease.end();
}

export function usableLease(userId: string, now: number): HeldLease | undefined {
  const lease = held.get(userId);
  return lease?.usable(now) ? lease : undefined;
}

export function currentLease(userId: string): HeldLease | undefined {
  return held.get(userId);
}

/** Makes `lease` the account's current one unless another is still usable; returns whether it was taken. */
export function holdLease(lease: HeldLease, now: number): boolean {
  if (usableLease(lease.userId, now)) return false;
  held.set(lease.userId, lease);
  return true;
}

export function dropLease(lease: HeldLease): void {
  if (held.get(lease.userId) === lease) held.delete(lease.userId);
}
