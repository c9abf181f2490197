/**
 * Ports for the local servers the suites and tools start (wrangler dev, stand-ins), so two
 * checkouts on one machine can run them at once: the ports named by a variable when it is set
 * (BROWSER_PORT, EDITION_PORT, BENCH_PORT, CLIENTS_PORT: a range of one's own), else ports the
 * system has free at the start. Node only.
 */
import { createServer, type Server } from "node:net";

/** `count` distinct ports free on 127.0.0.1 now (held open together, then released for the caller). */
export async function freePorts(count: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", resolve);
      });
    }
    return servers.map((s) => {
      const address = s.address();
      if (!address || typeof address === "string") throw new Error("no port from the system");
      return address.port;
    });
  } finally {
    await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  }
}

/**
 * A suite's `count` ports: `variable`'s value and the ones after it when it is set (BROWSER_PORT=8850
 * with 5 ports: 8850 to 8854; `offset` ports further on, for a second lane), else free ones found now.
 */
export async function suitePorts(variable: string, count: number, offset = 0): Promise<number[]> {
  const given = process.env[variable];
  if (!given) return freePorts(count);
  const first = Number(given) + offset;
  if (!/^\d+$/.test(given) || first < 1 || first + count - 1 > 65535) throw new Error(`${variable} must be a port number, got "${given}"`);
  return Array.from({ length: count }, (_, i) => first + i);
}
