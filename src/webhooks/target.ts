/**
 * Where a webhook may be sent. Production: https only, and never to a private, loopback, link-local
 * or otherwise internal address written in the URL (IPv4 and IPv6 literals in those ranges,
 * `localhost`, single-label names and the internal suffixes `.local`, `.localhost`, `.internal`,
 * `.lan`, `.home.arpa`). Development (ENVIRONMENT = "development"): http and localhost too, to test
 * with a receiver on the same machine.
 *
 * A Worker cannot resolve a name before its fetch, so a public name that resolves to a private
 * address is not caught here; a check through DNS-over-HTTPS would only be a time-of-check /
 * time-of-use race (the name may resolve differently at the fetch). Cloudflare's fetch does not
 * reach private networks from a Worker, which is what makes that acceptable (docs/api.md, "Webhooks").
 * The same check runs at creation, on change and before each delivery.
 *
 * IPv6 literals are read whole (eight groups), so every form that carries an IPv4 address inside
 * (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, translated ::ffff:0:a.b.c.d, NAT64 64:ff9b::/96,
 * 6to4 2002::/16, Teredo 2001::/32) is judged by that address; site-local, unique-local,
 * link-local, multicast, documentation, benchmarking and discard ranges are refused as such. Ports:
 * only the usual web ports (none written, 443, 8443) in production; a receiver on port 22 or 6379 is
 * no webhook receiver, and allowing any port would turn deliveries into a port scanner.
 */
import { ipv6Groups } from "../lib/ip";

export const MAX_URL_LENGTH = 2000;

/** Ports a production webhook may name (besides none: https' own 443). */
export const WEBHOOK_PORTS: readonly string[] = ["443", "8443"];

const INTERNAL_SUFFIXES = [".localhost", ".local", ".internal", ".lan", ".home.arpa", ".intranet", ".corp"];

/** True when an IPv4 address (four numbers) is in a range no webhook may reach. */
function ipv4Refused([a, b, c]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local (cloud metadata)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) || // IETF protocol assignments, documentation (TEST-NET-1)
    (a === 192 && b === 88 && c === 99) || // 6to4 relay anycast
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    (a === 198 && b === 51 && c === 100) || // documentation (TEST-NET-2)
    (a === 203 && b === 0 && c === 113) || // documentation (TEST-NET-3)
    a >= 224 // multicast, reserved, broadcast
  );
}

function ipv4Of(host: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] : undefined;
}

const v4From = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255];

function ipv6Refused(g: number[]): boolean {
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return true; // ::
  if (zeros(0, 7) && g[7] === 1) return true; // ::1
  // IPv4 inside: compatible ::a.b.c.d, mapped ::ffff:a.b.c.d, translated ::ffff:0:a.b.c.d, NAT64 64:ff9b::a.b.c.d
  if (zeros(0, 6) || (zeros(0, 5) && g[5] === 0xffff) || (zeros(0, 4) && g[4] === 0xffff && g[5] === 0)) return ipv4Refused(v4From(g[6], g[7]));
  if (g[0] === 0x64 && g[1] === 0xff9b) return g[2] === 1 || ipv4Refused(v4From(g[6], g[7])); // 64:ff9b:1::/48 is local-use NAT64
  if (g[0] === 0x2002) return ipv4Refused(v4From(g[1], g[2])); // 6to4
  // Teredo: the server's IPv4 in groups 2-3, the client's (inverted) in 6-7; a relay could be steered to either.
  if (g[0] === 0x2001 && g[1] === 0) return ipv4Refused(v4From(g[2], g[3])) || ipv4Refused(v4From(g[6] ^ 0xffff, g[7] ^ 0xffff));
  return (
    (g[0] === 0x100 && zeros(1, 4)) || // discard-only 100::/64
    (g[0] & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (g[0] & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (g[0] & 0xffc0) === 0xfec0 || // site-local fec0::/10 (deprecated, still routed inside some networks)
    (g[0] & 0xff00) === 0xff00 || // multicast
    (g[0] === 0x2001 && g[1] === 0xdb8) || // documentation 2001:db8::/32
    (g[0] & 0xfff0) === 0x3ff0 || // documentation 3fff::/20
    (g[0] === 0x2001 && g[1] === 2 && g[2] === 0) || // benchmarking 2001:2::/48
    (g[0] === 0x2001 && (g[1] & 0xfff0) === 0x10) || // ORCHID 2001:10::/28
    (g[0] === 0x2001 && (g[1] & 0xfff0) === 0x20) // ORCHIDv2 2001:20::/28
  );
}

/** Whether a literal address in the URL's host is refused; undefined when the host is a name. */
function literalRefused(host: string): boolean | undefined {
  const v4 = ipv4Of(host);
  if (v4) return ipv4Refused(v4);
  if (!host.startsWith("[")) return undefined;
  const g = ipv6Groups(host.slice(1, -1).toLowerCase());
  return g ? ipv6Refused(g) : true;
}

/** Why this URL may not receive webhooks here, or null when it may. */
export function refusedTarget(raw: string, environment: string): string | null {
  if (raw.length > MAX_URL_LENGTH) return `at most ${MAX_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "not a URL";
  }
  const development = environment === "development";
  if (url.protocol !== "https:" && !(development && url.protocol === "http:")) return development ? "must be an http or https URL" : "must be an https URL";
  if (url.username || url.password) return "must not contain a user name or password";
  if (url.hash) return "must not contain a fragment (#...)";
  if (development) return null;
  if (url.port !== "" && !WEBHOOK_PORTS.includes(url.port)) return `may name no port but ${WEBHOOK_PORTS.join(" or ")} (or none)`;
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const literal = literalRefused(host);
  if (literal === true) return "must not point to a private, loopback, link-local, documentation or otherwise reserved address";
  if (literal === false) return null;
  if (host === "localhost" || !host.includes(".") || INTERNAL_SUFFIXES.some((s) => host.endsWith(s)))
    return "must name a public host (not localhost or an internal name)";
  return null;
}
