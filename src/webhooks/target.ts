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
 */
export const MAX_URL_LENGTH = 2000;

const INTERNAL_SUFFIXES = [".localhost", ".local", ".internal", ".lan", ".home.arpa", ".intranet", ".corp"];

function ipv4Private(host: string): boolean | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return undefined;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local (cloud metadata)
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && Number(m[3]) === 0) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

function ipv6Private(host: string): boolean | undefined {
  if (!host.startsWith("[")) return undefined;
  const h = host.slice(1, -1).toLowerCase();
  if (h === "::" || h === "::1") return true;
  // IPv4-mapped and -compatible (the URL parser writes them in hex: ::ffff:7f00:1)
  const mapped = /^::(ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (mapped) {
    const hi = Number.parseInt(mapped[2], 16);
    const lo = Number.parseInt(mapped[3], 16);
    return ipv4Private(`${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`) ?? true;
  }
  const first = Number.parseInt(h.split(":")[0] || "0", 16);
  return (
    (first & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (first & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (first & 0xff00) === 0xff00 || // multicast
    h.startsWith("64:ff9b:") || // NAT64 (may embed a private IPv4)
    h.startsWith("2001:db8:") // documentation
  );
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
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  const literal = ipv4Private(host) ?? ipv6Private(host);
  if (literal === true) return "must not point to a private, loopback or link-local address";
  if (literal === false) return null;
  if (host === "localhost" || !host.includes(".") || INTERNAL_SUFFIXES.some((s) => host.endsWith(s)))
    return "must name a public host (not localhost or an internal name)";
  return null;
}
