import { app } from "./app";
import { pruneAuthState } from "./auth/service";
import { runScheduledBilling } from "./billing/service";
import { guardedEnv } from "./db/guard";
import { consumeChunks } from "./jobs/consumer";
import { type JobMessage, pruneExpiredJobs } from "./jobs/service";
import { watchJobs } from "./jobs/watchdog";
import { errorText, log } from "./lib/log";
import { consumeDeliveries } from "./webhooks/delivery";
import { runPublisher } from "./webhooks/publisher";
import type { DeliveryMessage } from "./webhooks/service";

export { AccountObject } from "./account/object";

/** The every-minute trigger (wrangler.toml [triggers]): the webhook publisher (not exported: the main module exports handlers only). `wrangler dev --test-scheduled` runs it on GET /__scheduled?cron=*+*+*+*+*. */
const EVERY_MINUTE = "* * * * *";

/**
 * The cron triggers' jobs, chosen by the trigger's cron string, each on its own: one failing (a
 * dependency down half-way) neither stops the other nor goes unseen (logged); every job converges
 * when run again, which the next trigger does (docs/api.md, "When a dependency fails"). The
 * five-minute trigger (and any other) runs billing, the auth prune and the expired jobs' sweep; the
 * every-minute one, the publisher.
 */
async function scheduledJobs(cron: string, env: Env): Promise<void> {
  const jobs: Record<string, () => Promise<unknown>> =
    cron === EVERY_MINUTE
      ? { webhooks: () => runPublisher(env) }
      : {
          billing: () => runScheduledBilling(env),
          auth_prune: () => pruneAuthState(env),
          jobs_prune: () => pruneExpiredJobs(env),
          jobs_watch: () => watchJobs(env),
        };
  await Promise.all(Object.entries(jobs).map(([job, run]) => run().catch((e: unknown) => log.error("scheduled_job_failed", { job, error: errorText(e) }))));
}

export default {
  // guardedEnv: D1's production limits in development (src/db/guard.ts), one query budget per invocation.
  fetch: (request, env, ctx) => app.fetch(request, guardedEnv(env), ctx),
  scheduled: (controller, env, ctx) => ctx.waitUntil(scheduledJobs(controller.cron, guardedEnv(env))),
  // Two queues, told apart by name: bulk jobs' chunks (src/jobs/consumer.ts) and webhook deliveries (src/webhooks/delivery.ts).
  queue: (batch, env) =>
    batch.queue.startsWith("wilayah-jobs")
      ? consumeChunks(batch as MessageBatch<JobMessage>, guardedEnv(env))
      : consumeDeliveries(batch as MessageBatch<DeliveryMessage>, guardedEnv(env)),
} satisfies ExportedHandler<Env>;
