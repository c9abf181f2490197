/**
 * The publisher. The test D1 is shared with every other file, so nothing here flips
 * wilayah_edition.is_current: an earlier edition (2022b) is announced explicitly, as the cron
 * announces the current one, and its event row is deleted afterwards. Only this file writes
 * webhook_events; the baseline test empties it and puts back what was there.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { regionReads } from "../../src/db/reads";
import worker from "../../src/index";
import { announceEdition, editionKey, FIRST_PAGE, runPublisher } from "../../src/webhooks/publisher";
import { changesOfEdition, currentEdition, editionSummary, listChanges } from "../../src/wilayah/history/service";
import { call, json, verifiedDeveloper } from "../helpers";
import { createHook, type Received, receiver, waitFor } from "./helpers";

const EDITION = "2022b";
let restore: (() => void) | undefined;
afterEach(() => restore?.());
afterAll(async () => {
  await env.DB.prepare("DELETE FROM webhook_events WHERE key = ?").bind(editionKey(EDITION)).run();
});

const within = (code: string | null, p: string) => code !== null && (code === p || code.startsWith(`${p}.`));

describe("announcing an edition", () => {
  it("edition.published to every enabled subscriber created before it; regions.changed filtered by prefix, only when something matches; once", async () => {
    const host = `pub-${crypto.randomUUID().slice(0, 8)}.receiver.test`;
    const r = receiver(host);
    restore = r.restore;
    const url = (name: string) => `https://${host}/${name}`;
    const all = await changesOfEdition(regionReads(env), EDITION);
    const provinces = Array.from({ length: 90 }, (_, i) => String(i + 10));
    const quiet = provinces.find((p) => !all.some((c) => within(c.code_before, p) || within(c.code_after, p)))!;
    const busy = provinces.find((p) => all.filter((c) => within(c.code_before, p) || within(c.code_after, p)).length > 0)!;
    expect(quiet).toBeDefined();

    const dev = await verifiedDeveloper();
    const published = await createHook(dev.token, { url: url("published"), events: ["edition.published"] });
    const both = await createHook(dev.token, { url: url("both"), events: ["edition.published", "regions.changed"], regions: [busy] });
    const unmatched = await createHook(dev.token, { url: url("unmatched"), events: ["regions.changed"], regions: [quiet] });
    const disabled = await createHook(dev.token, { url: url("disabled"), events: ["edition.published"], enabled: false });
    await env.DB.prepare("DELETE FROM webhook_events WHERE key = ?").bind(editionKey(EDITION)).run();
    const at = Date.now() + 1;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const late = await createHook(dev.token, { url: url("late"), events: ["edition.published"] });
    // created after the event: a creation time after `at`
    await env.DB.prepare("UPDATE webhook_endpoints SET created_at = ? WHERE id = ?")
      .bind(at + 1000, late.id)
      .run();

    const result = await announceEdition(env, EDITION, at);
    expect(result.announced).toBe(true);
    const ours = await env.DB.prepare(
      `SELECT endpoint_id, event_type FROM webhook_deliveries WHERE event_key = ? AND endpoint_id IN (?, ?, ?, ?, ?) ORDER BY endpoint_id, event_type`,
    )
      .bind(editionKey(EDITION), published.id, both.id, unmatched.id, disabled.id, late.id)
      .all<{ endpoint_id: string; event_type: string }>();
    expect(ours.results.map((d) => `${d.endpoint_id}:${d.event_type}`).sort()).toEqual(
      [`${published.id}:edition.published`, `${both.id}:edition.published`, `${both.id}:regions.changed`].sort(),
    );

    // delivered through the queue, signed
    await waitFor(() => r.received.length >= 3 || undefined);
    const byPath = (path: string, type: string) =>
      r.received.filter((x) => new URL(x.url).pathname === `/${path}`).find((x) => JSON.parse(x.body).type === type) as Received;
    const summary = (await editionSummary(regionReads(env), EDITION))!;
    const firstPage = await listChanges(regionReads(env), { from: "2022", to: EDITION, page: 1, per_page: FIRST_PAGE });
    const pub = new Webhook(published.secret).verify(byPath("published", "edition.published").body, byPath("published", "edition.published").headers) as any;
    expect(pub).toMatchObject({
      type: "edition.published",
      timestamp: new Date(at).toISOString(),
      data: {
        edition: EDITION,
        regulation: summary.regulation,
        previous_edition: "2022",
        counts: summary.counts,
        changes_url: `/api/v1/wilayah/changes?from=2022&to=${EDITION}`,
      },
    });
    expect(pub.data.counts.total).toBe(all.length);
    expect(pub.data.changes).toEqual(firstPage.data);
    expect(pub.data.changes).toHaveLength(FIRST_PAGE);

    const changed = new Webhook(both.secret).verify(byPath("both", "regions.changed").body, byPath("both", "regions.changed").headers) as any;
    const matching = all.filter((c) => within(c.code_before, busy) || within(c.code_after, busy));
    expect(changed.data).toMatchObject({
      edition: EDITION,
      previous_edition: "2022",
      regions: [busy],
      total: matching.length,
      truncated: matching.length > 200,
    });
    expect(changed.data.changes).toEqual(matching.slice(0, 200));
    for (const c of changed.data.changes) expect(within(c.code_before, busy) || within(c.code_after, busy)).toBe(true);

    // once: a second run announces nothing
    expect(await announceEdition(env, EDITION, Date.now())).toEqual({ announced: false, deliveries: [] });
    const log = (await json(await call(`/user/webhooks/${published.id}/deliveries`, { token: dev.token }))).data;
    expect(log).toHaveLength(1);
  });
});

describe("the cron", () => {
  async function withEmptyEvents(fn: () => Promise<void>) {
    const saved = await env.DB.prepare("SELECT key, type, edition, baseline, created_at FROM webhook_events").all<Record<string, unknown>>();
    await env.DB.prepare("DELETE FROM webhook_events").run();
    try {
      await fn();
    } finally {
      await env.DB.prepare("DELETE FROM webhook_events").run();
      for (const row of saved.results)
        await env.DB.prepare("INSERT INTO webhook_events (key, type, edition, baseline, created_at) VALUES (?, ?, ?, ?, ?)")
          .bind(row.key, row.type, row.edition, row.baseline, row.created_at)
          .run();
    }
  }

  it("the very first run records the current edition as a baseline and delivers nothing; the next run announces nothing", async () => {
    await withEmptyEvents(async () => {
      const current = (await currentEdition(regionReads(env)))!;
      const first = await runPublisher(env);
      expect(first).toMatchObject({ announced: false, baseline: true, deliveries: [] });
      const row = await env.DB.prepare("SELECT * FROM webhook_events").all<{ key: string; baseline: number }>();
      expect(row.results).toEqual([expect.objectContaining({ key: editionKey(current.id), baseline: 1 })]);
      const n = await env.DB.prepare("SELECT count(*) AS n FROM webhook_deliveries WHERE event_key = ?").bind(editionKey(current.id)).first<{ n: number }>();
      expect(n!.n).toBe(0);
      expect(await runPublisher(env)).toMatchObject({ announced: false, deliveries: [] });
    });
  });

  it("the every-minute trigger runs the publisher; the five-minute one does not", async () => {
    await withEmptyEvents(async () => {
      const run = async (cron: string) => {
        const ctx = createExecutionContext();
        await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron }), env, ctx);
        await waitOnExecutionContext(ctx);
        return (await env.DB.prepare("SELECT count(*) AS n FROM webhook_events").first<{ n: number }>())!.n;
      };
      expect(await run("*/5 * * * *")).toBe(0);
      expect(await run("* * * * *")).toBe(1);
    });
  });
});
