import { z } from "zod";
import { monthUsageSchema } from "../account/schemas";
import { userSchema } from "../auth/schemas";
import { keySchema } from "../keys/schemas";
import { pageMeta } from "../lib/paging";
import { displayText } from "../lib/text";

export const userStatusInput = z.enum(["active", "suspended"]);

/** An admin's change of a user (REST body; the portal sends one field at a time). */
export const userPatchInput = z
  .strictObject({ status: userStatusInput.optional(), is_admin: z.boolean().optional() })
  .refine((b) => b.status !== undefined || b.is_admin !== undefined, "give status and/or is_admin");

/** Credits granted (+) or taken (-) by an admin, with the reason that goes into the ledger. */
export const creditGrantInput = z.strictObject({
  amount: z
    .number()
    .int()
    .refine((n) => n !== 0, "must not be 0")
    .refine((n) => Math.abs(n) <= 100_000_000, "too large")
    .describe("Credits: + grants, - takes"),
  reason: displayText(3, 200),
});

/** A subscription granted by an admin. */
export const subscriptionGrantInput = z.strictObject({ plan_id: z.string().min(1).max(40), months: z.number().int().min(1).max(36).default(1) });

export const adminUserSchema = userSchema.extend({ is_admin: z.boolean(), created_at: z.string() });
export const adminUsersResponse = z.object({ data: z.array(adminUserSchema), meta: pageMeta });
export const adminUserResponse = z.object({ data: adminUserSchema });
export const adminUserDetailResponse = z.object({ data: adminUserSchema.extend({ keys: z.array(keySchema), usage: monthUsageSchema }) });
export const statsResponse = z.object({ data: z.object({ users: z.int(), active_keys: z.int(), calls_this_month: z.int(), month: z.string() }) });
export const balanceResponse = z.object({ data: z.object({ balance: z.int() }) });
export const grantedSubscriptionResponse = z.object({ data: z.object({ plan_id: z.string(), period_start: z.string(), period_end: z.string() }) });
