/** API timestamps: ISO 8601 in UTC, or null. Stored times are epoch milliseconds. */
export function iso(ms: number): string;
export function iso(ms: number | null | undefined): string | null;
export function iso(ms: number | null | undefined): string | null {
  return ms == null ? null : new Date(ms).toISOString();
}

/** The UTC day (`YYYY-MM-DD`) of an epoch-millisecond time: the unit usage is counted in. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

const UNITS = [
  ["hour", 3_600_000],
  ["minute", 60_000],
  ["second", 1_000],
] as const;

/**
 * A duration as a message says it, in the largest whole unit (`30 minutes`, `24 hours`, `1 second`):
 * messages and emails say what the constants hold instead of restating them. Days are not used:
 * "valid for 24 hours" is what the messages have always said.
 */
export function spokenDuration(ms: number): string {
  for (const [unit, size] of UNITS) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}${ms === size ? "" : "s"}`;
  }
  return `${ms} ms`;
}

/** A turn of the event loop: lets requests waiting on the isolate run between slices of long work. */
export function nextTurn(): Promise<void> {
  return new Promise((r) => setTimeout(r, 0));
}

/**
 * A wait of `ms` that `wake()` ends early. Only the request that started the wait may wake it:
 * workerd refuses to resume one request's continuation from another ("Cannot perform I/O on behalf
 * of a different request", I/O type Lock), so a wait started in one request's `waitUntil` cannot be
 * ended by the next request of the isolate. The fault scenarios (test/faults), which drive the app
 * within one request, end background waits with it instead of waiting them out.
 */
export function wakeableDelay(ms: number): { done: Promise<void>; wake: () => void } {
  let wake = () => {};
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { done, wake };
}
