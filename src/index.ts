import { app } from "./app";
import { runScheduledBilling } from "./billing/service";

export { AccountAgent } from "./account/agent";

export default {
  fetch: app.fetch,
  scheduled: (_controller, env, ctx) => ctx.waitUntil(runScheduledBilling(env)),
} satisfies ExportedHandler<Env>;
