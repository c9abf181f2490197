/**
 * The vector tiles of the test subset (test/setup/tiles-subset.ts builds the archive), put where
 * the Worker reads them, as `npm run dev` and `seed:tiles --remote` do.
 */
import { env } from "cloudflare:workers";
import { tilesKey } from "../src/tiles/files";
import { CURRENT_TILES, forgetArchive } from "../src/tiles/service";
import archiveB64 from "./.generated/tiles/archive.b64?raw";

export async function uploadTilesSubset(): Promise<void> {
  const bytes = Uint8Array.from(atob(archiveB64.trim()), (c) => c.charCodeAt(0));
  await env.EXPORTS.put(tilesKey(CURRENT_TILES), bytes);
  forgetArchive();
}
