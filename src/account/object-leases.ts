/**
 * The leases the account object has granted: each reserves its calls from the quota until its
 * isolate settles it, or until its grace is over (its isolate may have gone: it then ends
 * uncounted). Credits an exact admission spent only because leases reserved quota come back when
 * those leases end with calls unused. Part of the object (object.ts; README.md: the glossary).
 */
import { utcDay } from "../lib/time";
import type { RevokedKeys } from "./object-revoked";
import { creditsBack, leaseSize } from "./rules";
import type { AccountStore } from "./store";

/** How long an isolate may admit calls under a lease. */
export const LEASE_MS = 1_000;
/** How long an unsettled lease keeps its reservation (its isolate may have gone): then it ends uncounted. */
const LEASE_GRACE_MS = 30_000;

/** `revoked`: the account's keys revoked lately; the isolate refuses them under the lease as the object would. */
export type Lease = { id: string; calls: number; ms: number; revoked: string[] };

export class LeasesOut {
  readonly #store: AccountStore;
  readonly #revoked: RevokedKeys;

  constructor(store: AccountStore, revoked: RevokedKeys) {
    this.#store = store;
    this.#revoked = revoked;
  }

  /** A lease for an admission of `calls` just counted, sized on the quota `left` it was decided on; none when too little is left. */
  grant(now: number, calls: number, left: number): Lease | undefined {
    const leaseCalls = calls === 1 ? leaseSize(left) : 0;
    if (leaseCalls === 0) return undefined;
    const lease = { id: crypto.randomUUID(), calls: leaseCalls, ms: LEASE_MS, revoked: [...this.#revoked.recent(now).keys()] };
    this.#store.addLease(lease.id, leaseCalls, now + LEASE_MS + LEASE_GRACE_MS);
    return lease;
  }

  /** Calls reserved by unsettled leases; leases past their grace end here, uncounted. */
  reserved(now: number): number {
    for (const gone of this.#store.expiredLeases(now)) this.end(gone.id, gone.calls);
    return this.#store.reservedCalls();
  }

  /** A lease is over with `unused` calls not served: credits its reservation made others spend come back. */
  end(id: string, unused: number): void {
    this.#store.deleteLease(id);
    const { owedToReservations, pendingDebit } = this.#store.state;
    const back = creditsBack(unused, owedToReservations);
    if (back > 0) {
      this.#store.setState({ owedToReservations: owedToReservations - back, pendingDebit: pendingDebit - back });
      this.#store.addMonthSpend(utcDay(Date.now()).slice(0, 7), -back);
    }
  }
}
