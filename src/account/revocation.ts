/**
 * Revoking API keys everywhere: the key's row and cached lookups (src/keys), then the account
 * object, which every call or lease goes through, so revocation reaches every isolate within the
 * lease period (docs/api.md, "API keys"). Surfaces and the takeover call these, not keys/ directly.
 */
import type { RequestMeta } from "../audit/service";
import { revokeKey, revokeKeysCreatedBefore } from "../keys/service";
import { keysRevoked } from "./admission";

/** `DELETE /user/keys/:id` and the portal's revoke button. */
export async function revokeApiKey(env: Env, userId: string, keyId: string, meta: RequestMeta) {
  const key = await revokeKey(env, userId, keyId, meta);
  await keysRevoked(env, userId, [key.id]);
  return key;
}

/** A takeover: every key the account had before `before` (ms). Returns how many were revoked. */
export async function revokeKeysBefore(env: Env, userId: string, before: number, meta: RequestMeta): Promise<number> {
  const ids = await revokeKeysCreatedBefore(env, userId, before, meta);
  await keysRevoked(env, userId, ids);
  return ids.length;
}
