/** The audit trail's event names and its REST shapes. */
import { z } from "zod";
import { pageMeta } from "../lib/paging";

export const AUDIT_EVENTS = [
  "login_succeeded",
  "login_failed",
  "login_locked",
  "logout",
  "logout_all",
  "password_changed",
  "password_reset_requested",
  "password_reset",
  "account_takeover",
  "account_replaced",
  "email_verified",
  "key_created",
  "key_revoked",
  "key_rolled",
  "admin_user_changed",
  "admin_credits_changed",
  "admin_subscription_granted",
  "payment_refunded",
  "payment_amount_mismatch",
  "report_filed",
  "report_reviewed",
] as const;
export type AuditEventName = (typeof AUDIT_EVENTS)[number];

export const auditEventSchema = z
  .object({
    id: z.int(),
    at: z.string().describe("ISO 8601, UTC"),
    event: z.enum(AUDIT_EVENTS),
    actor_id: z.string().nullable().describe("Who acted: the user, an admin; null for the payment provider or an unknown caller"),
    subject_id: z.string().nullable().describe("The account it concerns; null when none matched (a login with an unknown email)"),
    ip: z.string().nullable(),
    request_id: z.string().nullable(),
    detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).describe("Ids, amounts, reasons: never a secret"),
  })
  .meta({
    example: {
      id: 42,
      at: "2026-11-22T05:00:00.000Z",
      event: "admin_user_changed",
      actor_id: "user_adm1nAdm1nAdm1n",
      subject_id: "user_x8Kq2mVn4pLr7tWc",
      ip: "203.0.113.7",
      request_id: "8f2c1e0a-4b7d-4f3e-9a61-2d5c7b9e0f14",
      detail: { status: "suspended" },
    },
  });

export const auditListResponse = z.object({ data: z.array(auditEventSchema), meta: pageMeta });
