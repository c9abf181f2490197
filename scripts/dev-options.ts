/**
 * `npm run dev`'s own options and what it prints (scripts/dev.ts), apart so they are tested without
 * starting anything (scripts/dev-options.test.ts).
 */

export const DEFAULT_PORT = 8787;

export type DevOptions = { port: number; serve: boolean; verbose: boolean; exports: boolean; tiles: boolean; wranglerArgs: string[] };

function portOf(value: string | undefined, from: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value ?? "") || port < 1 || port > 65535) throw new Error(`${from} must be a port number (1-65535), got "${value ?? ""}"`);
  return port;
}

/**
 * The command line after `npm run dev --`: `--port N` or `--port=N` (else `PORT` from the
 * environment, else 8787), `--no-serve`, `--verbose`, and with `--no-serve` `--exports` / `--tiles`
 * (build and upload them before it stops; served, they are always prepared in the background); the
 * rest goes to `wrangler dev` as given. `--port` is taken out, never passed on: wrangler refuses it
 * twice ("expects a single value").
 */
export function devOptions(argv: string[], envPort?: string): DevOptions {
  let port = envPort ? portOf(envPort, "PORT") : DEFAULT_PORT;
  let serve = true;
  let verbose = false;
  let exports = false;
  let tiles = false;
  const wranglerArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--port" || a === "-p") port = portOf(argv[++i], a);
    else if (a.startsWith("--port=")) port = portOf(a.slice("--port=".length), "--port");
    else if (a === "--no-serve") serve = false;
    else if (a === "--verbose") verbose = true;
    else if (a === "--exports") exports = true;
    else if (a === "--tiles") tiles = true;
    else wranglerArgs.push(a);
  }
  if ((exports || tiles) && serve) throw new Error("--exports and --tiles go with --no-serve (served, npm run dev prepares both in the background)");
  return { port, serve, verbose, exports, tiles, wranglerArgs };
}

/**
 * What `npm run dev` prints last: where things are, with the port in use and every URL quoted (zsh
 * reads an unquoted `?` as a glob), then the key alone on the last line, to copy as it is.
 */
export function devSummary(o: { key: string; keyFile: string; port: number; serving: boolean }): string {
  const origin = `http://localhost:${o.port}`;
  const lines = [
    "",
    o.serving
      ? `The API is running on "${origin}" until you stop it (Ctrl+C); run npm test and other commands in a second terminal.`
      : `Prepared (--no-serve): npm run dev serves "${origin}".`,
    "",
    "Try:",
    `  curl -H "x-api-key: $(cat '${o.keyFile}')" "${origin}/api/v1/wilayah/search?q=bandung"`,
    `  Portal: "${origin}/portal"   Map: "${origin}/map"   API reference: "${origin}/docs"   MCP: "${origin}/mcp"`,
    ...(o.serving
      ? [
          "  Sign-up verification links are printed here, in this terminal (the console mailer).",
          "  Bulk exports and map tiles are prepared in the background when missing (a few minutes on a first start; a line here says when):",
          "  every other call answers now.",
        ]
      : []),
    "",
    `Development API key (also in ${o.keyFile}):`,
    o.key,
    "",
  ];
  return lines.join("\n");
}
