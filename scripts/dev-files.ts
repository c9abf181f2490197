/**
 * What `npm run dev` prepares in the background once the API answers (scripts/dev.ts starts this at
 * a lower priority): the bulk exports and the vector tiles in the local R2 of its state, each built
 * once per seed (.wrangler/exports/, .wrangler/tiles/) and uploaded when the state lacks it. Quiet
 * when both are there; otherwise a line when each starts and when it is ready. Until then the
 * export routes answer NOT_FOUND and the tiles SERVICE_UNAVAILABLE, with a message saying so; every
 * other call is served meanwhile. WRANGLER_PERSIST_TO as scripts/dev.ts.
 */
import { isMain, SEED_DIR } from "./lib.ts";
import { ensureLocalExports } from "./seed/exports.ts";
import { ensureLocalTiles } from "./seed/tiles.ts";

async function main() {
  const persistTo = process.env.WRANGLER_PERSIST_TO || undefined;
  // One after the other (two cores, and the Worker beside them); a failure of one leaves the other to try.
  for (const [what, ensure] of [
    ["bulk exports", ensureLocalExports],
    ["vector tiles", ensureLocalTiles],
  ] as const) {
    try {
      await ensure(SEED_DIR, persistTo, { background: true });
    } catch (e) {
      console.log(
        `Background: the ${what} could not be prepared (${e instanceof Error ? e.message : String(e)}); npm run seed:${what === "bulk exports" ? "exports" : "tiles"} tries again.`,
      );
    }
  }
}

if (isMain(import.meta.url)) void main();
