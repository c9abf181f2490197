/** IP address helpers, pure: the webhook target filter and the gate's per-client throttles read addresses with them. */

/** The eight 16-bit groups of an IPv6 literal as the URL parser writes it (lower-case hex, `::` compressed, no dotted tail). */
export function ipv6Groups(h: string): number[] | undefined {
  const halves = h.split("::");
  if (halves.length > 2) return undefined;
  const part = (s: string) => (s === "" ? [] : s.split(":"));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return undefined;
  const groups = [...head, ...Array(halves.length === 2 ? fill : 0).fill("0"), ...tail];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return groups.map((g) => Number.parseInt(g, 16));
}
