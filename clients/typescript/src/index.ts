/**
 * Wilayah API for TypeScript: the SDK functions and types generated from the API document
 * (./generated, by @hey-api/openapi-ts; never edited by hand), plus the little they lack:
 * a client with the API key, bounded retries (./retry.ts) and one error type, ApiError.
 *
 *   const wilayah = createWilayahClient({ baseUrl: "https://api.example.com", apiKey: "wk_live_..." });
 *   const { data } = await searchRegions({ client: wilayah, query: { q: "bandung" } });
 */
import { type Client, createClient, createConfig } from "./generated/client/index.js";
import type { Error as ErrorBody } from "./generated/types.gen.js";
import { parseRetryAfter, type RetryOptions, retryingFetch } from "./retry.js";

export type { Client } from "./generated/client/index.js";
export * from "./generated/index.js";
export { parseRetryAfter, type RetryOptions, retryingFetch } from "./retry.js";
export type { ErrorBody };

/** Every failed call rejects with this: the API's error body, its HTTP status and request id. */
export class ApiError extends Error {
  override readonly name = "ApiError";
  /** Stable and machine-readable (`NOT_FOUND`, `RATE_LIMITED`, ...): branch on this. */
  readonly code: string;
  readonly status: number;
  /** Quote it to support; also the `x-request-id` header. */
  readonly requestId: string | null;
  /** Validation failures: which field, and why. */
  readonly details: { path: string; message: string }[] | undefined;
  /** On 429: seconds the server asked to wait (when the client did not wait that long itself). */
  readonly retryAfter: number | null;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    requestId: string | null;
    details?: { path: string; message: string }[];
    retryAfter?: number | null;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.retryAfter = init.retryAfter ?? null;
  }

  /** From an error answer: the contract's body when it is one, else what the status says. */
  static from(response: Response, body: unknown): ApiError {
    const parsed = (body as Partial<ErrorBody> | null)?.error;
    const retryMs = parseRetryAfter(response.headers.get("retry-after"));
    return new ApiError({
      status: response.status,
      code: typeof parsed?.code === "string" ? parsed.code : `HTTP_${response.status}`,
      message: typeof parsed?.message === "string" ? parsed.message : typeof body === "string" && body ? body.slice(0, 500) : `HTTP ${response.status}`,
      requestId: (typeof parsed?.request_id === "string" ? parsed.request_id : null) ?? response.headers.get("x-request-id"),
      details: parsed?.details,
      retryAfter: retryMs === null ? null : Math.ceil(retryMs / 1000),
    });
  }
}

export type WilayahClientOptions = {
  /** Where the API is, e.g. `https://api.example.com` or `http://localhost:8787`. */
  baseUrl: string;
  /** For the data endpoints (`/api/v1/...`): a `wk_live_...` key. */
  apiKey?: string;
  /** For the account routes (`/user/...`, `/billing/...`): the session token from `login`. */
  token?: string;
  /** Retry settings, or `false` for none. */
  retry?: RetryOptions | false;
  /** The underlying fetch (default: the global one). */
  fetch?: typeof fetch;
  headers?: Record<string, string>;
};

/** A client for the SDK functions: pass it as `{ client }` to each call. */
export function createWilayahClient(options: WilayahClientOptions): Client {
  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const client = createClient(
    createConfig({
      baseUrl: options.baseUrl.replace(/\/+$/, ""),
      fetch: options.retry === false ? baseFetch : retryingFetch(baseFetch, options.retry),
      headers: options.headers,
      throwOnError: true,
      // Each operation names its scheme: x-api-key for data, bearer for account routes.
      auth: (scheme) => (scheme.type === "apiKey" && scheme.name === "x-api-key" ? options.apiKey : scheme.scheme === "bearer" ? options.token : undefined),
    }),
  );
  // An error answer (4xx/5xx, after retries) becomes an ApiError; network failures stay as fetch threw them.
  client.interceptors.error.use((error, response) => (response && !response.ok && !(error instanceof ApiError) ? ApiError.from(response, error) : error));
  return client;
}

type Page<TItem> = { data: TItem[]; meta: { page: number; total_pages: number } };

/**
 * Every item of a paged list, page after page to the last (`meta.total_pages`), as an async iterator:
 *
 *   for await (const kab of paginate(listKabupaten, { client, query: { provinsi_id: "32", per_page: 100 } })) ...
 */
export async function* paginate<TOptions extends { query?: object }, TItem>(
  list: (options: TOptions) => Promise<{ data: Page<TItem> }>,
  options: TOptions,
): AsyncGenerator<TItem, void, undefined> {
  let page = (options.query as { page?: number } | undefined)?.page ?? 1;
  for (;;) {
    const { data } = await list({ ...options, query: { ...options.query, page } });
    yield* data.data;
    if (data.meta.page >= data.meta.total_pages || data.data.length === 0) return;
    page = data.meta.page + 1;
  }
}
