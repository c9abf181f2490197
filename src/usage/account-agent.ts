import { Agent } from "agents";

/**
 * The per-account Durable Object. It will keep live usage counts (accounts issue); for now it is
 * only declared so that the binding and its migration exist from the first deploy.
 */
export class AccountAgent extends Agent<Env> {}
