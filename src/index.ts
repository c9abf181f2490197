import { app } from "./app";
import { pruneAuthState } from "./auth/service";
import { runScheduledBilling } from "./billing/service";

export { AccountAgent } from "./account/agent";

export default {
  fetch: app.fetch,
  scheduled: (_controller, env, ctx) => ctx.waitUntil(Promise.all([runScheduledBilling(env), pruneAuthState(env)])),
} satisfies ExportedHandler<Env>;
