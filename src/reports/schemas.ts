/** Reports of wrong facts (docs/api.md, "Reporting a wrong fact"): the fields, the statuses, and the REST shapes. */
import { z } from "zod";
import { pageMeta, pageParams } from "../lib/paging";
import { displayText, nameText } from "../lib/text";

/** What a report may say is wrong. */
export const REPORT_FIELDS = ["name", "parent", "postal_code", "coordinates", "boundary", "population", "missing_child", "other"] as const;
export type ReportField = (typeof REPORT_FIELDS)[number];

export const REPORT_STATUSES = ["open", "accepted", "rejected", "duplicate"] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

export const EVIDENCE_TEXT_MAX = 2_000;
export const VALUE_MAX = 500;

/** The value the reporter believes right: one line of text, NFC, nothing invisible (it may become an official name). */
const value = nameText(1, VALUE_MAX).describe(
  "The value you believe right: the name as it should be written, the parent's code, a 5-digit postal code, `lat,lng` in decimal degrees, the population, the missing village's name, or a short statement",
);

const evidence = z
  .strictObject({
    url: z
      .url({ protocol: /^https?$/, error: "an http(s) URL" })
      .max(2_000, "at most 2,000 characters")
      .optional()
      .describe("A page or document that shows it"),
    regulation: displayText(1, 200).optional().describe("A regulation's number, e.g. Permendagri 58 Tahun 2021"),
    text: z
      .string()
      .trim()
      .min(1, `1 to ${EVIDENCE_TEXT_MAX} characters`)
      .max(EVIDENCE_TEXT_MAX, `1 to ${EVIDENCE_TEXT_MAX} characters`)
      .optional()
      .describe(`Free text, up to ${EVIDENCE_TEXT_MAX} characters`),
  })
  .refine((e) => e.url !== undefined || e.regulation !== undefined || e.text !== undefined, "give at least one of url, regulation, text")
  .describe("Why: at least one of a URL, a regulation number, free text");

export const reportInput = z.strictObject({
  field: z.enum(REPORT_FIELDS).describe("What is wrong"),
  value,
  evidence,
  email: z
    .email("an email address")
    .max(254)
    .optional()
    .describe(
      "Your account's own email, if you name one: decisions are emailed only to the account's verified address (another address is refused, so no report can make us mail a stranger)",
    ),
});
export type ReportInput = z.infer<typeof reportInput>;

export const reportSchema = z
  .object({
    id: z.string(),
    region_id: z.string(),
    field: z.enum(REPORT_FIELDS),
    value: z.string(),
    evidence: z.object({ url: z.string().nullable(), regulation: z.string().nullable(), text: z.string().nullable() }),
    status: z.enum(REPORT_STATUSES),
    answer: z.string().nullable().describe("The reviewer's answer, once reviewed"),
    basis: z.string().nullable().describe("accepted: the basis the correction cites"),
    accepted_value: z.string().nullable().describe("accepted: the value the correction applies"),
    duplicate_of: z.string().nullable().describe("duplicate: the report it repeats"),
    created_at: z.string(),
    reviewed_at: z.string().nullable(),
  })
  .meta({
    example: {
      id: "rpt_x8Kq2mVn4pLr7tWc",
      region_id: "32.73.09.1001",
      field: "postal_code",
      value: "40114",
      evidence: { url: "https://kodepos.example/40114", regulation: null, text: null },
      status: "open",
      answer: null,
      basis: null,
      accepted_value: null,
      duplicate_of: null,
      created_at: "2026-11-28T05:00:00.000Z",
      reviewed_at: null,
    },
  });

export const reportResponse = z.object({ data: reportSchema });
export const reportListResponse = z.object({ data: z.array(reportSchema), meta: pageMeta });

export const ownReportsQuery = z.strictObject({ status: z.enum(REPORT_STATUSES).optional().describe("Only this status"), ...pageParams });

/** The admin queue's filters. */
export const adminReportsQuery = z.strictObject({
  status: z.enum(REPORT_STATUSES).optional().describe("Only this status (default: every status)"),
  field: z.enum(REPORT_FIELDS).optional().describe("Only this field"),
  region_id: z.string().max(20).optional().describe("Only this region (dots optional)"),
  ...pageParams,
});

/** A report in the admin queue: with who filed it, and the others of the same region, field and value (duplicates). */
export const adminReportSchema = reportSchema.extend({
  user_id: z.string(),
  key_id: z.string().describe("The key it was filed with, or `portal`"),
  reviewed_by: z.string().nullable(),
  same: z.array(z.string()).describe("Other reports of the same region, field and value (compared without case and spacing), oldest first"),
});
export const adminReportListResponse = z.object({ data: z.array(adminReportSchema), meta: pageMeta });
export const adminReportResponse = z.object({ data: adminReportSchema });

/** An admin's decision: accept (with the basis and, optionally, the value to apply), reject or mark a duplicate, each with an answer. */
export const reviewInput = z.discriminatedUnion("status", [
  z.strictObject({
    status: z.literal("accepted"),
    answer: displayText(3, 2_000).describe("Told to the reporter"),
    basis: displayText(3, 500).describe("What the correction cites: a regulation, a letter, a survey"),
    value: nameText(1, VALUE_MAX).optional().describe("The value to apply (default: the reporter's)"),
  }),
  z.strictObject({ status: z.literal("rejected"), answer: displayText(3, 2_000).describe("Told to the reporter: why not") }),
  z.strictObject({
    status: z.literal("duplicate"),
    answer: displayText(3, 2_000).optional().describe("Told to the reporter"),
    duplicate_of: z.string().max(40).describe("The report it repeats (`rpt_...`)"),
  }),
]);
export type ReviewInput = z.infer<typeof reviewInput>;
