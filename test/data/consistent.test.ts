/**
 * `consistent` (src/data/run.ts) with the data version riding in the handler's own batch
 * (src/data/reads.ts): one D1 round trip for an answer whose one batch is its last read, the
 * separate read after it otherwise (told by the reads themselves, not by the service), a stale
 * remembered version read again, and a read after the last batch through a handle taken before it
 * refused by the Worker tests' D1 guard.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { afterEach, expect, it, vi } from "vitest";
import { noteLoaded } from "../../src/data/cache";
import { consistent } from "../../src/data/run";
import { regionDb } from "../../src/db/client";
import { guardD1, queriesSoFar } from "../../src/db/guard";
import type { RegionReads } from "../../src/db/reads";
import { WILAYAH_DATA } from "../../src/wilayah/version";

afterEach(() => {
  vi.restoreAllMocks();
});

const version = WILAYAH_DATA as Exclude<typeof WILAYAH_DATA, string>;

/** A guarded env of its own (a fresh query count), with the loaded version remembered by this isolate. */
async function guarded(): Promise<Env> {
  const e = { ...env, DB: guardD1(env.DB) } as Env;
  noteLoaded(version, await version.read(regionDb(env)));
  return e;
}

/** One region read in a batch of the answer's reads (where the version may ride). */
async function readRegion(reads: RegionReads) {
  const [result] = await reads.batch([reads.db.$client.prepare("SELECT id, name FROM provinsi WHERE id = ?").bind("32")]);
  return (result as D1Result<{ id: string; name: string }>).results[0];
}

it("reads the version in the handler's own batch when that batch was its last read: no read of its own", async () => {
  const e = await guarded();
  const read = vi.spyOn(version, "read");
  const before = queriesSoFar(e.DB) ?? -1;
  const { value, loaded } = await consistent(WILAYAH_DATA, e, (reads) => readRegion(reads));
  expect(value).toEqual({ id: "32", name: "Jawa Barat" });
  expect(read).not.toHaveBeenCalled();
  expect(loaded).toEqual(await version.read(regionDb(env)));
  expect((queriesSoFar(e.DB) ?? 0) - before).toBe(2); // the region and the version, one batch
});

it("reads the version after the handler when it read again after its batch", async () => {
  const e = await guarded();
  const read = vi.spyOn(version, "read");
  const { value } = await consistent(WILAYAH_DATA, e, async (reads) => {
    const region = await readRegion(reads);
    await reads.db.all(sql`SELECT count(*) AS n FROM kabupaten`);
    return region;
  });
  expect(value?.id).toBe("32");
  expect(read).toHaveBeenCalledTimes(1);
});

it("reads again, both ways, when the batch saw other data than the isolate remembered (a swap since)", async () => {
  const e = await guarded();
  noteLoaded(version, { version: "older", checksum: "stale" });
  const read = vi.spyOn(version, "read");
  let runs = 0;
  const { loaded } = await consistent(WILAYAH_DATA, e, (reads) => {
    runs++;
    return readRegion(reads);
  });
  expect(runs).toBe(2);
  expect(read).toHaveBeenCalledTimes(2); // before and after the second run: a retry never rides
  expect(loaded.checksum).not.toBe("stale");
});

it("refuses a read after the last batch through a handle taken before it (the guard counts it): it would not be bracketed by any version", async () => {
  const e = await guarded();
  await expect(
    consistent(WILAYAH_DATA, e, async (reads) => {
      const db = reads.db;
      const region = await readRegion(reads);
      await db.all(sql`SELECT count(*) AS n FROM kabupaten`);
      return region;
    }),
  ).rejects.toThrow(/region read after the answer's last batch/);
});
