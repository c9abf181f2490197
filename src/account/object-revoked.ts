/**
 * The keys the account object knows were revoked lately: refused by every admission and named in
 * every lease it grants, so no isolate serves them past the leases it already holds. Mirrored
 * from the object's storage; part of the object (object.ts).
 */
import type { AccountStore } from "./store";

/**
 * How long the object remembers a revoked key. Past it no cache anywhere can still call the key
 * valid (KV's cached lookups live 10 minutes and are distrusted for 15 after a revocation; isolates
 * keep theirs 10 seconds), so the database's answer alone refuses it.
 */
const REVOKED_MEMORY_MS = 60 * 60 * 1000;

export class RevokedKeys {
  readonly #store: AccountStore;
  /** Revoked key id -> when (ms), mirrored from storage. */
  #revoked: Map<string, number> | undefined;

  constructor(store: AccountStore) {
    this.#store = store;
  }

  /** The keys revoked within REVOKED_MEMORY_MS (older ones are forgotten here). */
  recent(now: number): Map<string, number> {
    this.#revoked ??= this.#store.revoked();
    for (const [id, at] of this.#revoked) {
      if (at > now - REVOKED_MEMORY_MS) continue;
      this.#revoked.delete(id);
      this.#store.deleteRevoked(id);
    }
    return this.#revoked;
  }

  add(keyIds: readonly string[], now: number): void {
    const revoked = this.recent(now);
    for (const id of keyIds) {
      this.#store.addRevoked(id, now);
      revoked.set(id, now);
    }
  }
}
