/** API timestamps: ISO 8601 in UTC, or null. Stored times are epoch milliseconds. */
export function iso(ms: number): string;
export function iso(ms: number | null | undefined): string | null;
export function iso(ms: number | null | undefined): string | null {
  return ms == null ? null : new Date(ms).toISOString();
}
