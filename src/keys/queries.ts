import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiKeys, users } from "../db/schema";

export async function findKeyByHash(db: Db, keyHash: string) {
  const rows = await db
    .select({ keyId: apiKeys.id, userId: apiKeys.userId, revokedAt: apiKeys.revokedAt, userStatus: users.status })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .where(eq(apiKeys.keyHash, keyHash))
    .limit(1);
  return rows[0];
}
