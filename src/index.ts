import { app } from "./app";
import { pruneAuthState } from "./auth/service";
import { runScheduledBilling } from "./billing/service";
import { guardedEnv } from "./db/guard";
import { errorText, log } from "./lib/log";

export { AccountAgent } from "./account/agent";

/**
 * The cron trigger's jobs, each on its own: one failing (a dependency down half-way) neither stops
 * the other nor goes unseen (logged); every job converges when run again, which the next trigger
 * does five minutes later (docs/api.md, "When a dependency fails").
 */
async function scheduledJobs(env: Env): Promise<void> {
  const jobs = { billing: () => runScheduledBilling(env), auth_prune: () => pruneAuthState(env) };
  await Promise.all(Object.entries(jobs).map(([job, run]) => run().catch((e: unknown) => log.error("scheduled_job_failed", { job, error: errorText(e) }))));
}

export default {
  // guardedEnv: D1's production limits in development (src/db/guard.ts), one query budget per invocation.
  fetch: (request, env, ctx) => app.fetch(request, guardedEnv(env), ctx),
  scheduled: (_controller, env, ctx) => ctx.waitUntil(scheduledJobs(guardedEnv(env))),
} satisfies ExportedHandler<Env>;
