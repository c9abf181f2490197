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
