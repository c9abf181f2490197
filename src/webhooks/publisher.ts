/**
 * The publisher (the cron, every minute): announces a newly current edition of the region code
 * list. It compares the current edition with the editions already announced (webhook_events, one row
 * per `edition.published:<edition>`): the very first run records the current edition as a baseline
 * and delivers nothing; later, an edition not yet announced gets an `edition.published` delivery for
 * every enabled endpoint subscribed to it and a `regions.changed` delivery for every one subscribed
 * to that whose region prefixes match a change (code_before or code_after starting with one; no
 * prefixes: every change). Only endpoints created before the event get it. The event and its
 * deliveries are written in one batch, then queued; a run that stopped in between is completed by
 * the next (`enqueueStranded`). Reads the region history only through its service.
 */
import { primaryDb } from "../db/client";
import { regionReads } from "../db/reads";
import { newId } from "../lib/crypto";
import { changesOfEdition, currentEdition, type EditionSummary, editionSummary, listChanges } from "../wilayah/history/service";
import { anyEventRecorded, findEvent, recordEvent, subscribers } from "./queries";
import type { JobEventData, UsageThresholdData, WebhookPayload } from "./schemas";
import { deadLetterStale, enqueue, enqueueStranded } from "./service";

/** Changes in an `edition.published` payload; the rest are a link away. */
export const FIRST_PAGE = 50;
/** Changes in a `regions.changed` payload. */
export const MAX_REGION_CHANGES = 200;

export const editionKey = (edition: string) => `edition.published:${edition}`;

function changesUrl(env: Env, e: EditionSummary): string {
  const path = `/api/v1/wilayah/changes?${e.previous ? `from=${encodeURIComponent(e.previous)}&` : ""}to=${encodeURIComponent(e.id)}`;
  return `${env.PUBLIC_API_URL.replace(/\/$/, "")}${path}`;
}

type Announced = { announced: boolean; baseline?: boolean; deliveries: string[] };

/**
 * Announces `editionId` unless it was announced already (the cron passes the current edition; tests
 * pass one of their own and delete its event afterwards). `now` is the event's time: only endpoints
 * created at or before it get it.
 */
export async function announceEdition(env: Env, editionId: string, now = Date.now()): Promise<Announced> {
  const db = primaryDb(env);
  const key = editionKey(editionId);
  if (await findEvent(db, key)) return { announced: false, deliveries: [] };
  const regions = regionReads(env);
  const edition = await editionSummary(regions, editionId);
  if (!edition) throw new Error(`announceEdition: unknown edition ${editionId}`);
  const timestamp = new Date(now).toISOString();
  const link = changesUrl(env, edition);

  const deliveries: { id: string; endpointId: string; eventType: string; eventKey: string; payload: string; status: "pending"; createdAt: number }[] = [];
  const add = (endpointId: string, payload: WebhookPayload) =>
    deliveries.push({
      id: newId("msg"),
      endpointId,
      eventType: payload.type,
      eventKey: key,
      payload: JSON.stringify(payload),
      status: "pending",
      createdAt: now,
    });

  const published = await subscribers(db, "edition.published", now);
  if (published.length) {
    const firstPage = edition.previous
      ? (await listChanges(regions, { from: edition.previous, to: edition.id, kind: "edition", page: 1, per_page: FIRST_PAGE })).data
      : [];
    const data = {
      edition: edition.id,
      regulation: edition.regulation,
      previous_edition: edition.previous,
      counts: edition.counts,
      changes: firstPage,
      changes_url: link,
    };
    for (const e of published) add(e.id, { type: "edition.published", timestamp, data });
  }

  const changed = await subscribers(db, "regions.changed", now);
  if (changed.length) {
    const all = await changesOfEdition(regions, edition.id);
    for (const e of changed) {
      const prefixes = JSON.parse(e.regions) as string[];
      const matching = prefixes.length ? all.filter((c) => prefixes.some((p) => within(c.code_before, p) || within(c.code_after, p))) : all;
      if (matching.length === 0) continue;
      add(e.id, {
        type: "regions.changed",
        timestamp,
        data: {
          edition: edition.id,
          previous_edition: edition.previous,
          regions: prefixes,
          total: matching.length,
          changes: matching.slice(0, MAX_REGION_CHANGES),
          truncated: matching.length > MAX_REGION_CHANGES,
          changes_url: link,
        },
      });
    }
  }

  await recordEvent(db, { key, type: "edition.published", edition: edition.id, baseline: false, createdAt: now }, deliveries);
  await enqueue(
    env,
    deliveries.map((d) => d.id),
  );
  return { announced: true, deliveries: deliveries.map((d) => d.id) };
}

/**
 * An account's bulk job is over (src/jobs): a `job.completed` or `job.failed` delivery for each of
 * the account's enabled endpoints subscribed to it, recorded once per job and type (a second call
 * records and sends nothing).
 */
export async function announceJob(env: Env, userId: string, type: "job.completed" | "job.failed", data: JobEventData, now = Date.now()): Promise<string[]> {
  return announceToAccount(env, userId, { type, key: `${type}:${data.job.id}`, data }, now);
}

/**
 * One of the account's alerts (src/account/alerts.ts): a `usage.threshold` delivery for each of its
 * enabled endpoints subscribed to it, recorded once per month, kind and threshold.
 */
export async function announceUsageThreshold(env: Env, userId: string, data: UsageThresholdData, now = Date.now()): Promise<string[]> {
  const key = `usage.threshold:${userId}:${data.month}:${data.kind}:${data.threshold}`;
  return announceToAccount(env, userId, { type: "usage.threshold", key, data }, now);
}

/** An event of one account: recorded once by `key` (a second call records and sends nothing), with its deliveries, then queued. */
async function announceToAccount(
  env: Env,
  userId: string,
  event: { type: "job.completed" | "job.failed" | "usage.threshold"; key: string; data: WebhookPayload["data"] },
  now: number,
): Promise<string[]> {
  const db = primaryDb(env);
  const { type, key, data } = event;
  if (await findEvent(db, key)) return [];
  const payload = JSON.stringify({ type, timestamp: new Date(now).toISOString(), data } satisfies WebhookPayload);
  const deliveries = (await subscribers(db, type, now, userId)).map((e) => ({
    id: newId("msg"),
    endpointId: e.id,
    eventType: type,
    eventKey: key,
    payload,
    status: "pending" as const,
    createdAt: now,
  }));
  await recordEvent(db, { key, type, edition: null, baseline: false, createdAt: now }, deliveries);
  await enqueue(
    env,
    deliveries.map((d) => d.id),
  );
  return deliveries.map((d) => d.id);
}

/** A code lies within a prefix when it is the prefix or starts with it and a dot (92.01 holds 92.01.05, not 92.010). */
const within = (code: string | null, prefix: string) => code !== null && (code === prefix || code.startsWith(`${prefix}.`));

/**
 * The cron's job: the baseline on the very first run, else the current edition if it is new; then
 * any stranded deliveries are queued and those the queue gave up on become dead letters.
 */
export async function runPublisher(env: Env, now = Date.now()): Promise<Announced & { stranded: number; stale: number }> {
  const db = primaryDb(env);
  const current = await currentEdition(regionReads(env));
  let result: Announced = { announced: false, deliveries: [] };
  if (current) {
    if (!(await anyEventRecorded(db))) {
      await recordEvent(db, { key: editionKey(current.id), type: "edition.published", edition: current.id, baseline: true, createdAt: now }, []);
      result = { announced: false, baseline: true, deliveries: [] };
    } else {
      result = await announceEdition(env, current.id, now);
    }
  }
  return { ...result, stranded: await enqueueStranded(env, now), stale: await deadLetterStale(env, now) };
}
