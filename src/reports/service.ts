/**
 * Reports of wrong facts (docs/api.md, "Reporting a wrong fact"): filed by an account (an API key or
 * a portal session), free of charge and throttled per account and per client address, audited;
 * listed by their reporter; reviewed by admins (accepted with a basis, rejected, or a duplicate),
 * the reporter told by email. Accepted reports become corrections through seed/corrections.csv
 * (`npm run corrections:pull`, then the seed build). Knows nothing of HTTP.
 */
import { audit, auditIf, type RequestMeta } from "../audit/service";
import { mailerFor } from "../auth/mailer";
import { findUserById } from "../auth/queries";
import { batch, primaryDb } from "../db/client";
import { regionReads } from "../db/reads";
import { newId } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { type PageOf, type Paging, pageWindow } from "../lib/paging";
import { throttle } from "../lib/throttle";
import { iso } from "../lib/time";
import { toDottedId } from "../wilayah/codes";
import { getRegion } from "../wilayah/regions/service";
import { noteOpenReport } from "./open";
import {
  countFiledSince,
  decide,
  dropOverCap,
  findReport,
  insertReport,
  type ReportRow,
  reportQueue,
  reportsOfRegions,
  reportsOfUser,
  withinCap,
} from "./queries";
import type { ReportInput, ReportStatus, ReviewInput } from "./schemas";

/** Reports per account per minute and per client address per minute (wrangler.toml REPORT_LIMITER). */
export const REPORTS_PER_MINUTE = 5;
/** Reports per account per day (counted in D1, exact): reports are read by people. */
export const REPORTS_PER_DAY = 50;
const DAY_MS = 86_400_000;

/** Who files: the account, the key (or `portal`), and where from. */
/** Who files; `lang`: the portal page's language, which the decision's email is written in (English without it). */
export type Reporter = RequestMeta & { userId: string; keyId: string; lang?: "id" | "en" };

export function publicReport(r: ReportRow) {
  return {
    id: r.id,
    region_id: r.regionId,
    field: r.field,
    value: r.value,
    evidence: { url: r.evidenceUrl, regulation: r.evidenceRegulation, text: r.evidenceText },
    status: r.status,
    answer: r.answer,
    basis: r.basis,
    accepted_value: r.acceptedValue,
    duplicate_of: r.duplicateOf,
    created_at: iso(r.createdAt),
    reviewed_at: iso(r.reviewedAt),
  };
}
export type ReportView = ReturnType<typeof publicReport>;

/** The region a report is about, dotted; NOT_FOUND when no edition holds it (as GET /wilayah/{id} answers). */
async function regionOf(env: Env, rawId: string) {
  return (await getRegion(regionReads(env), rawId)).data;
}

const overCap = () =>
  new ApiError("RATE_LIMITED", `At most ${REPORTS_PER_DAY} reports a day per account. Try again tomorrow, or write to us.`, {
    headers: { "retry-after": "3600" },
  });

/** A report's `email`, if given, must be the account's own (where decisions are mailed): anything else is refused, never used. */
async function checkOwnEmail(env: Env, userId: string, email: string): Promise<void> {
  const user = await findUserById(primaryDb(env), userId);
  if (user && user.email === email.trim().toLowerCase()) return;
  const message = "decisions are emailed only to your account's verified email: leave `email` out, or give that address";
  throw new ApiError("VALIDATION_ERROR", `Invalid request body: email: ${message}`, { details: [{ path: "email", message }] });
}

/** Files a report: the region must exist; throttled (per minute per account and per address, per day per account); audited with it. */
export async function fileReport(env: Env, rawRegionId: string, input: ReportInput, who: Reporter): Promise<ReportView> {
  await throttle(env.REPORT_LIMITER, `report:account:${who.userId}`, 60);
  // Per address only when it is known (behind Cloudflare it always is): one shared "unknown" bucket would throttle everyone.
  if (who.ip) await throttle(env.REPORT_LIMITER, `report:ip:${who.ip}`, 60);
  const region = await regionOf(env, rawRegionId);
  const db = primaryDb(env);
  if (input.email !== undefined) await checkOwnEmail(env, who.userId, input.email);
  const now = Date.now();
  if ((await countFiledSince(db, who.userId, now - DAY_MS)) >= REPORTS_PER_DAY) throw overCap();
  const row: ReportRow = {
    id: newId("rpt"),
    userId: who.userId,
    keyId: who.keyId,
    regionId: region.id,
    field: input.field,
    value: input.value,
    evidenceUrl: input.evidence.url ?? null,
    evidenceRegulation: input.evidence.regulation ?? null,
    evidenceText: input.evidence.text ?? null,
    notifyEmail: null, // decisions go to the account's verified email only (tellReporter)
    lang: who.lang ?? null,
    status: "open",
    answer: null,
    basis: null,
    acceptedValue: null,
    duplicateOf: null,
    createdAt: now,
    reviewedAt: null,
    reviewedBy: null,
  };
  // The report and its audit event commit together (the event names the report, never the evidence
  // text or the email). The count above is a fast answer; the cap itself is checked in the batch, so
  // reports filed at the same moment cannot pass it together: one over it is taken back there.
  const since = now - DAY_MS;
  const results = await batch(db, [
    insertReport(db, row),
    auditIf(
      who,
      {
        event: "report_filed",
        actorId: who.userId,
        subjectId: who.userId,
        detail: { report_id: row.id, region_id: row.regionId, field: row.field, key_id: who.keyId },
      },
      withinCap(who.userId, since, REPORTS_PER_DAY),
    ),
    dropOverCap(db, row.id, who.userId, since, REPORTS_PER_DAY),
  ]);
  if (results[2]?.meta.changes) throw overCap();
  noteOpenReport(row.regionId, 1);
  return publicReport(row);
}

export async function listOwnReports(env: Env, userId: string, opts: Paging & { status?: ReportStatus }): Promise<PageOf<ReportView>> {
  const w = pageWindow(opts);
  const { total, rows } = await reportsOfUser(primaryDb(env), userId, opts.status, w.limit, w.offset);
  return { items: rows.map(publicReport), meta: w.meta(total) };
}

/** Reports say the same when region, field and value match, the value compared without case and spacing. */
const sameKey = (r: Pick<ReportRow, "regionId" | "field" | "value">) =>
  `${r.regionId}\u001f${r.field}\u001f${r.value.toLowerCase().replace(/\s+/g, " ").trim()}`;

function adminReport(r: ReportRow, same: string[]) {
  return { ...publicReport(r), user_id: r.userId, key_id: r.keyId, reviewed_by: r.reviewedBy, same };
}
export type AdminReportView = ReturnType<typeof adminReport>;

/** Groups of the same region, field and value among the reports of `rows`' regions, by report id: the other ids. */
async function duplicatesOf(env: Env, rows: ReportRow[]): Promise<Map<string, string[]>> {
  const all = await reportsOfRegions(primaryDb(env), [...new Set(rows.map((r) => r.regionId))]);
  const groups = new Map<string, string[]>();
  for (const r of all) groups.set(sameKey(r), [...(groups.get(sameKey(r)) ?? []), r.id]);
  return new Map(rows.map((r) => [r.id, (groups.get(sameKey(r)) ?? []).filter((id) => id !== r.id)]));
}

/** The admin queue: oldest first, filtered by status, field and region; each report with the others that say the same. */
export async function reportQueuePage(
  env: Env,
  filter: { status?: ReportStatus; field?: string; region_id?: string },
  paging: Paging,
): Promise<PageOf<AdminReportView>> {
  const w = pageWindow(paging);
  const regionId = filter.region_id === undefined ? undefined : (toDottedId(filter.region_id) ?? "-");
  const { total, rows } = await reportQueue(primaryDb(env), { status: filter.status, field: filter.field, regionId }, w.limit, w.offset);
  const same = await duplicatesOf(env, rows);
  return { items: rows.map((r) => adminReport(r, same.get(r.id) ?? [])), meta: w.meta(total) };
}

/**
 * The value an accepted correction applies, in the form the seed build takes (scripts/seed/corrections.ts):
 * a postal code is 5 digits (kelurahan/desa only), coordinates are `lat,lng` inside Indonesia's
 * extent. Other fields take the text as given. VALIDATION_ERROR names what is wrong.
 */
export function correctionValue(field: ReportRow["field"], level: string, raw: string): string {
  const bad = (message: string) => new ApiError("VALIDATION_ERROR", `Invalid value for ${field}: ${message}`, { details: [{ path: "value", message }] });
  const v = raw.trim();
  if (field === "postal_code") {
    if (level !== "kelurahan") throw bad(`postal codes belong to kelurahan/desa; this region is a ${level}`);
    if (!/^[1-9]\d{4}$/.test(v)) throw bad("a postal code is 5 digits, e.g. 40114");
    return v;
  }
  if (field === "coordinates") {
    const m = /^(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)$/.exec(v);
    const lat = m ? Number(m[1]) : Number.NaN;
    const lng = m ? Number(m[2]) : Number.NaN;
    if (!m || lat < -11.5 || lat > 6.5 || lng < 94.5 || lng > 141.5) throw bad("`lat,lng` in decimal degrees inside Indonesia, e.g. -6.9147,107.6098");
    return `${lat},${lng}`;
  }
  if (field === "name" && v.length > 100) throw bad("a name of at most 100 characters");
  return v;
}

/** The fields the seed build applies by itself (scripts/seed/corrections.ts APPLIED; docs/api.md, "Reporting a wrong fact"). */
const APPLIED = new Set<ReportRow["field"]>(["name", "postal_code", "coordinates"]);

/** Who decides, and where from (the audit trail). */
export type Reviewer = RequestMeta & { id: string };

/** The decision's email, in the language the report was filed in (`lang`; English without it): one language per message. */
const DECISION_MAIL = {
  en: {
    status: { accepted: "accepted: the correction goes into the next data release", rejected: "not accepted", duplicate: "a duplicate of an earlier report" },
    outcome: { accepted: "accepted", rejected: "rejected", duplicate: "marked a duplicate" },
    subject: (region: string, outcome: string) => `Your report on ${region} was ${outcome}`,
    was: (r: ReportRow, status: string) => `Your report ${r.id} (${r.field} of region ${r.regionId}: "${r.value}") was ${status}.`,
    answer: "The reviewer's answer:",
    basis: "Basis",
    applied: "Value applied",
    repeats: (id: string) => `It repeats report ${id}.`,
    where: "Your reports and their answers: GET /user/reports, or the portal's Reports page.",
  },
  id: {
    status: {
      accepted: "diterima: koreksinya masuk ke rilis data berikutnya",
      rejected: "tidak diterima",
      duplicate: "duplikat dari laporan sebelumnya",
    },
    outcome: { accepted: "diterima", rejected: "ditolak", duplicate: "ditandai duplikat" },
    subject: (region: string, outcome: string) => `Laporan Anda tentang ${region} ${outcome}`,
    was: (r: ReportRow, status: string) => `Laporan Anda ${r.id} (${r.field} wilayah ${r.regionId}: "${r.value}") ${status}.`,
    answer: "Jawaban peninjau:",
    basis: "Dasar",
    applied: "Nilai yang diterapkan",
    repeats: (id: string) => `Laporan ini mengulang laporan ${id}.`,
    where: "Laporan Anda dan jawabannya: GET /user/reports, atau halaman Laporan di portal.",
  },
} as const;

/**
 * Tells the reporter, at the account's email and only when it is verified: a report's text goes into
 * the mail, so an address the reporter merely typed would make the service's domain a relay to
 * anyone. (Reports filed before this rule may hold another address: it is not used.) Never fails
 * the decision: the answer is in GET /user/reports too.
 */
async function tellReporter(env: Env, r: ReportRow): Promise<void> {
  const user = await findUserById(primaryDb(env), r.userId);
  const to = user?.emailVerified ? user.email : undefined;
  if (!to || r.status === "open") return;
  const m = DECISION_MAIL[r.lang ?? "en"];
  const lines = [
    m.was(r, m.status[r.status]),
    "",
    ...(r.answer ? [m.answer, r.answer, ""] : []),
    ...(r.status === "accepted" && r.basis ? [`${m.basis}: ${r.basis}`, `${m.applied}: ${r.acceptedValue ?? r.value}`, ""] : []),
    ...(r.duplicateOf ? [m.repeats(r.duplicateOf), ""] : []),
    m.where,
  ];
  await mailerFor(env).send({ to, subject: m.subject(r.regionId, m.outcome[r.status]), text: lines.join("\n") });
}

/**
 * An admin's decision on an open report (409 REPORT_CLOSED once decided, by anyone): accepted with
 * its basis (the value checked as the seed build will apply it), rejected, or a duplicate of
 * another report. Audited; the reporter is emailed.
 */
export async function reviewReport(env: Env, id: string, decision: ReviewInput, reviewer: Reviewer): Promise<AdminReportView> {
  const db = primaryDb(env);
  const before = await findReport(db, id);
  if (!before) throw new ApiError("NOT_FOUND", `No report "${id.slice(0, 40)}".`);
  if (before.status !== "open") throw new ApiError("REPORT_CLOSED", `Report ${id} is already ${before.status}; a decision is final.`);
  let acceptedValue: string | null = null;
  if (decision.status === "accepted") {
    const region = await regionOf(env, before.regionId);
    // The seed corrects today's regions: a retired code's record is as it was last published.
    if (region.is_active !== 1 && APPLIED.has(before.field)) {
      throw new ApiError(
        "VALIDATION_ERROR",
        `Region ${region.id} is a retired code: its record is as last published and is not corrected. Reject the report, or report on its successor.`,
        {
          details: [{ path: "status", message: "a retired region's facts are not corrected" }],
        },
      );
    }
    acceptedValue = correctionValue(before.field, region.level, decision.value ?? before.value);
  }
  if (decision.status === "duplicate") {
    const other = await findReport(db, decision.duplicate_of);
    if (!other || other.id === id)
      throw new ApiError("VALIDATION_ERROR", `duplicate_of: no other report "${decision.duplicate_of.slice(0, 40)}".`, {
        details: [{ path: "duplicate_of", message: "an existing report's id" }],
      });
  }
  const at = Date.now();
  const after = await decide(db, id, {
    status: decision.status,
    answer: decision.answer ?? null,
    basis: decision.status === "accepted" ? decision.basis : null,
    acceptedValue,
    duplicateOf: decision.status === "duplicate" ? decision.duplicate_of : null,
    reviewedAt: at,
    reviewedBy: reviewer.id,
  });
  if (!after) throw new ApiError("REPORT_CLOSED", `Report ${id} was decided a moment ago by someone else.`);
  noteOpenReport(after.regionId, -1);
  await audit(env, reviewer, {
    event: "report_reviewed",
    actorId: reviewer.id,
    subjectId: after.userId,
    detail: { report_id: id, region_id: after.regionId, field: after.field, status: after.status },
  });
  await tellReporter(env, after);
  return adminReport(after, (await duplicatesOf(env, [after])).get(after.id) ?? []);
}
