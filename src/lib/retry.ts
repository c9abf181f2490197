import { errorText, type LogFields, log } from "./log";

/**
 * Work that must land but whose failure must not fail the request (giving back a call, settling a
 * lease, discarding a key never shown): tried up to `attempts` times, waiting `backoffMs * 4^n`
 * between tries (none with 0), and logged as `event` with `fields` if it never lands. Only for
 * work that is safe to repeat.
 */
export async function retried(work: () => Promise<unknown>, o: { attempts: number; backoffMs: number; event: string; fields?: LogFields }): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    try {
      await work();
      return true;
    } catch (e) {
      if (attempt >= o.attempts - 1) {
        log.error(o.event, { ...o.fields, error: errorText(e) });
        return false;
      }
      if (o.backoffMs > 0) await new Promise((r) => setTimeout(r, o.backoffMs * 4 ** attempt));
    }
  }
}
