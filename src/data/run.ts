/**
 * Runs a declared data endpoint for either surface (REST or MCP): validates the input, admits the
 * call (or the batch's calls), answers from the response cache when it can (cache.ts: keyed by
 * endpoint, validated input and data version; by caller too for `cacheScope: "account"`),
 * otherwise calls the handler and keeps its answer. Every answer names the version of the data it
 * was read from (x-data-version): a seed apply swaps the data in one transaction, and a handler
 * whose reads straddled a swap runs again (`consistent`).
 */
import { type RegionDb, regionDb } from "../db/client";
import { plainReads, type RegionReads, regionReads } from "../db/reads";
import { ApiError, validationError } from "../lib/errors";
import { answerKey, cachedAnswer, cacheOn, keepAnswer, type Loaded, loadedFor, noteLoaded, recentlyLoaded, sameData } from "./cache";
import type { DataContext } from "./context";
import type { DataEndpoint, DataVersion, FileAnswer, FileEndpoint, JsonEndpoint } from "./endpoint";
import { AnswerReads } from "./reads";

export type EndpointResult = { json: string; cache: "HIT" | "MISS"; version: string };

/** The input as its schema reads it; a failure is INVALID_QUERY for query parameters, VALIDATION_ERROR for a JSON body. */
export function parseInput<E extends DataEndpoint>(ep: E, raw: unknown) {
  const parsed = ep.input.safeParse(raw);
  if (!parsed.success) {
    throw ep.method === "POST"
      ? validationError("VALIDATION_ERROR", "request body", parsed.error.issues)
      : validationError("INVALID_QUERY", "parameters", parsed.error.issues);
  }
  return parsed.data;
}

/** Reads the version around the handler's reads: equal before and after, every read saw the same data (a swap is one transaction); otherwise read again. */
const CONSISTENT_TRIES = 3;

/**
 * `run` with every read of one version of the region data (read again when a seed swap came
 * between), and that version. Also used by bulk jobs per chunk. Every read, the version's
 * included, goes through `db`: one D1 session with read replication, so a replica serves them in
 * order. `run` is handed the region reads of one try (src/data/reads.ts): the handle, the checksum
 * read before, and the batches the version may ride in.
 *
 * The version before the handler's reads may be the one this isolate saw last (`recentlyLoaded`,
 * at most LOADED_TTL_MS old) when the reads go to the primary (no read replication): the primary
 * is linearizable, so every later read sees that version or a newer one, and an equal version read
 * after the handler brackets its reads as well as a fresh read before would. That saves one D1
 * statement per uncached answer (docs/performance.md, "BPS codes"); and when the handler's last read
 * was a batch the version rode in, that version is the one after (src/data/reads.ts). With replicas
 * a new session may start behind what the isolate saw, so both reads are made; a retry always reads both.
 */
export async function consistent<T>(
  version: DataVersion,
  env: Env,
  run: (reads: RegionReads) => Promise<T>,
  db: RegionDb = regionDb(env),
): Promise<{ value: T; loaded: Loaded }> {
  if (typeof version === "string") return { value: await run(plainReads(db)), loaded: { version, checksum: "" } };
  for (let i = 0; i < CONSISTENT_TRIES; i++) {
    const remembered = i === 0 && env.D1_READ_REPLICATION !== "auto" ? recentlyLoaded(version) : undefined;
    const before = remembered ?? (await version.read(db));
    const reads = new AnswerReads(db, before.checksum, remembered ? version.ride : undefined);
    const value = await run(reads);
    const after = reads.lastBatchVersion() ?? (await version.read(db));
    if (before.checksum === after.checksum) {
      noteLoaded(version, after);
      return { value, loaded: after };
    }
  }
  throw new ApiError("SERVICE_UNAVAILABLE", "The data was being replaced while this request read it; try again in a moment.", {
    headers: { "retry-after": "1" },
  });
}

/** The answer as cached, then as `ep.annotate` completes it (after the cache: a hit is annotated too). */
async function runEndpoint(ep: JsonEndpoint, input: Record<string, unknown>, call: DataContext): Promise<EndpointResult> {
  const result = await cachedOrComputed(ep, input, call);
  return ep.annotate ? { ...result, json: await ep.annotate(result.json, input, call) } : result;
}

async function cachedOrComputed(ep: JsonEndpoint, input: Record<string, unknown>, call: DataContext): Promise<EndpointResult> {
  // every region read of this answer, the data version's included, through one handle (one D1 session with read replication)
  const db = regionDb(call.env);
  const compute = async () => {
    const { value, loaded } = await consistent(ep.version, call.env, (reads) => ep.handler(input, { ...call, reads }), db);
    return { json: JSON.stringify(value), loaded };
  };
  if (!cacheOn(ep, call.env)) {
    const { json, loaded } = await compute();
    return { json, cache: "MISS", version: loaded.version };
  }

  const seen = await loadedFor(ep.version, db);
  const key = await answerKey(ep, input, seen, call.principal.userId);
  const hit = await cachedAnswer(key, ep.cacheSeconds);
  if (hit) return { ...hit, cache: "HIT" };

  const { json, loaded } = await compute();
  // Kept under the version it was read from (a swap since `seen` makes it a key of the new data).
  keepAnswer(sameData(loaded, seen) ? key : await answerKey(ep, input, loaded, call.principal.userId), json, ep.cacheSeconds, (p) => call.waitUntil(p));
  return { json, cache: "MISS", version: loaded.version };
}

/**
 * The account's side of a data call, which the data plane only knows as this hook (wired in by
 * src/catalogue.ts from src/account/admission.ts).
 */
export type Admit = {
  /** Throws when the caller's plan may not call `ep`: asked before the input is read, so a caller who may not call learns that first. */
  mayCall(ctx: DataContext, ep: DataEndpoint): void;
  /** Rate, quota and metering of one request of `calls` calls; `giveBack` uncounts them when the request fails. */
  admit(ctx: DataContext, ep: DataEndpoint, calls: number): Promise<{ giveBack(): Promise<void> }>;
  /** The call answered (or refused), for the account's request log: never waits, never throws. */
  record(ctx: DataContext, call: AnsweredCall): void;
};

/** A data call as its surface answered it (REST's status; an MCP tool error's code with the status REST would have). */
export type AnsweredCall = {
  surface: "rest" | "mcp";
  method: string;
  /** The endpoint's path template, or the MCP tool's name. */
  route: string;
  status: number;
  code: string | null;
  /** Date.now() when the request (or the tool call) started. */
  startedAt: number;
  version: string | null;
};

/** Admits a request, runs `serve`, and gives the calls back when it fails: only successes are metered. */
async function admitted<T>(ep: DataEndpoint, input: Record<string, unknown>, ctx: DataContext, admit: Admit, serve: () => Promise<T>): Promise<T> {
  const admission = await admit.admit(ctx, ep, ep.calls ? ep.calls(input as never) : 1);
  try {
    return await serve();
  } catch (e) {
    await admission.giveBack();
    throw e;
  }
}

/**
 * One data request, for either surface: whether the plan may call it, its input validated (a bad one is never
 * metered), then admitted (a batch as its number of calls, whole or not at all), given back if it
 * fails, so only successes are metered.
 */
export async function serveDataCall(ep: JsonEndpoint, raw: unknown, ctx: DataContext, admit: Admit): Promise<EndpointResult> {
  admit.mayCall(ctx, ep);
  const input = parseInput(ep, raw);
  return admitted(ep, input, ctx, admit, () => runEndpoint(ep, input, ctx));
}

/**
 * A file request (REST only): checked and admitted like any data call, one call per download. The
 * stream is handed to the caller as it comes; a failure before it starts (no such file) gives the
 * call back.
 */
export async function serveFileCall(ep: FileEndpoint, raw: unknown, ctx: DataContext, admit: Admit): Promise<FileAnswer> {
  admit.mayCall(ctx, ep);
  const input = parseInput(ep, raw);
  return admitted(ep, input, ctx, admit, () => ep.handler(input, { ...ctx, reads: regionReads(ctx.env) }));
}
