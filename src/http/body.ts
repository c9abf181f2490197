/**
 * The one reader of JSON bodies: a request's body (account routes' validated bodies, the data
 * API's POSTs), or the text of one already read (a webhook's, whose signature is over its bytes),
 * as JSON; anything else is 400 INVALID_JSON.
 */
import type { HonoRequest } from "hono";
import { ApiError } from "../lib/errors";

/** `text` as JSON; `what` names it in the refusal ("The callback body is not valid JSON."). */
export function parseJsonText(text: string, what = "The request body"): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_JSON", `${what} is not valid JSON.`);
  }
}

/** A request's body as JSON (read through Hono, which keeps it: a later reader gets it again). */
export async function readJsonBody(req: HonoRequest): Promise<unknown> {
  return parseJsonText(await req.text());
}
