import { app } from "./app";

export { AccountAgent } from "./usage/account-agent";

export default {
  fetch: app.fetch,
} satisfies ExportedHandler<Env>;
