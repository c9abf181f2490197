/**
 * What the auth service asks of the features above it (auth/service.ts `AccountHooks`): revoking
 * the keys of a taken-over account, and replacing a stale unverified account whole. It lives here,
 * above auth, keys, the account and billing, so that none of them imports another's tables; each
 * table's statement comes from its owner.
 */
import { deleteAccountRowsIf } from "../account/queries";
import { revokeKeysBefore } from "../account/revocation";
import { deleteAuthRowsOf, deleteStaleUnverified, insertUserStatement, staleUnverified } from "../auth/queries";
import type { AccountHooks } from "../auth/service";
import { deleteBillingRowsIf } from "../billing/queries";
import { batch, primaryDb } from "../db/client";
import { deleteKeysOfUserIf } from "../keys/queries";

export const accountHooks: AccountHooks = {
  revokeKeysBefore,

  /**
   * One D1 batch (one transaction): every row of the stale account, then the account, then the new
   * user. Each delete holds only while the account is still unverified and old, so a verification
   * landing in between deletes nothing, and the insert then fails on the email: false, nothing changed.
   */
  async replaceStaleAccount(env, staleId, before, insert) {
    const db = primaryDb(env);
    const stale = staleUnverified(staleId, before);
    try {
      await batch(db, [
        deleteKeysOfUserIf(db, staleId, stale),
        ...deleteAccountRowsIf(db, staleId, stale),
        ...deleteBillingRowsIf(db, staleId, stale),
        ...deleteAuthRowsOf(db, staleId, stale),
        deleteStaleUnverified(db, staleId, before),
        insertUserStatement(db, insert),
      ]);
      return true;
    } catch (e) {
      if (/UNIQUE constraint failed/i.test(String((e as Error)?.cause ?? e))) return false;
      throw e;
    }
  },
};
