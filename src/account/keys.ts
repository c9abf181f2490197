/**
 * Creating an API key with what the account knows: a publishable key's own rate may not exceed
 * its plan's (the plans table is this room's; src/keys sits below it and is handed the ceiling).
 */
import type { RequestMeta } from "../audit/service";
import { primaryDb } from "../db/client";
import type { CreateKeyInput } from "../keys/schemas";
import { createKey } from "../keys/service";
import { findPlan } from "./queries";

/** `POST /user/keys` and the portal's form. */
export async function createApiKey(env: Env, user: { id: string; emailVerified: boolean; plan: string }, input: CreateKeyInput, meta: RequestMeta) {
  const plan = input.kind === "publishable" ? await findPlan(primaryDb(env), user.plan) : undefined;
  return createKey(env, user, input, plan ? plan.rateLimitPerMinute : null, meta);
}
