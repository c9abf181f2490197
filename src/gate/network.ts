/**
 * The client's network, as the per-client throttles count it: an IPv4 address as it is, an IPv6
 * address by its /64 (what one subscriber line or one server is given: rotating addresses inside
 * it, which costs nothing, does not make a new client).
 */
import { ipv6Groups } from "../lib/ip";

export function clientNetwork(ip: string | undefined): string {
  if (!ip) return "unknown";
  if (!ip.includes(":")) return ip;
  const groups = ipv6Groups(
    ip
      .toLowerCase()
      .replace(/^\[|\]$/g, "")
      .replace(/%.*$/, ""),
  );
  if (!groups) return ip;
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}
