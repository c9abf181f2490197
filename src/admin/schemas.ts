import { z } from "zod";
import { userSchema } from "../auth/schemas";
import { keySchema } from "../keys/schemas";
import { pageMeta } from "../lib/paging";
import { monthUsageSchema } from "../account/schemas";

export const adminUserSchema = userSchema.extend({ is_admin: z.boolean(), created_at: z.string() });
export const adminUsersResponse = z.object({ data: z.array(adminUserSchema), meta: pageMeta });
export const adminUserResponse = z.object({ data: adminUserSchema });
export const adminUserDetailResponse = z.object({ data: adminUserSchema.extend({ keys: z.array(keySchema), usage: monthUsageSchema }) });
export const statsResponse = z.object({ data: z.object({ users: z.int(), active_keys: z.int(), calls_this_month: z.int(), month: z.string() }) });
export const balanceResponse = z.object({ data: z.object({ balance: z.int() }) });
export const grantedSubscriptionResponse = z.object({ data: z.object({ plan_id: z.string(), period_start: z.string(), period_end: z.string() }) });
