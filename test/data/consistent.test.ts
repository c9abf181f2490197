/**
 * `consistent` (src/data/run.ts) with the data version riding in the handler's own batch
 * (src/db/client.ts, VersionRide): one D1 round trip for an answer whose one batch is its last
 * read, the separate read after it otherwise, a stale remembered version read again, and a read
 * after `lastRead` refused by the Worker tests' D1 guard.
 */
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { afterEach, expect, it, vi } from "vitest";
import { noteLoaded } from "../../src/data/cache";
import { consistent } from "../../src/data/run";
import { lastRead, regionDb, ridingBatch } from "../../src/db/client";
import { guardD1, queriesSoFar } from "../../src/db/guard";
import { WILAYAH_DATA } from "../../src/wilayah/version";

afterEach(() => {
  vi.restoreAllMocks();
});

const version = WILAYAH_DATA as Exclude<typeof WILAYAH_DATA, string>;

/** A guarded env of its own (a fresh query count), with the loaded version remembered by this isolate. */
async function guarded(): Promise<Env> {
  const e = { ...env, DB: guardD1(env.DB) } as Env;
  noteLoaded(version, await version.read(env));
  return e;
}

/** One region read in a batch (where the version may ride). */
async function readRegion(e: Env, last: boolean) {
  const db = regionDb(e);
  const [result] = await ridingBatch(db, [db.$client.prepare("SELECT id, name FROM provinsi WHERE id = ?").bind("32")]);
  if (last) lastRead(db);
  return (result as D1Result<{ id: string; name: string }>).results[0];
}

it("reads the version in the handler's own batch when that batch was its last read: no read of its own", async () => {
  const e = await guarded();
  const read = vi.spyOn(version, "read");
  const before = queriesSoFar(e.DB) ?? -1;
  const { value, loaded } = await consistent(WILAYAH_DATA, e, (pinned) => readRegion(pinned, true));
  expect(value).toEqual({ id: "32", name: "Jawa Barat" });
  expect(read).not.toHaveBeenCalled();
  expect(loaded).toEqual(await version.read(env));
  expect((queriesSoFar(e.DB) ?? 0) - before).toBe(2); // the region and the version, one batch
});

it("reads the version after the handler when it did not say its batch was its last read", async () => {
  const e = await guarded();
  const read = vi.spyOn(version, "read");
  const { value } = await consistent(WILAYAH_DATA, e, (pinned) => readRegion(pinned, false));
  expect(value?.id).toBe("32");
  expect(read).toHaveBeenCalledTimes(1);
});

it("reads again, both ways, when the batch saw other data than the isolate remembered (a swap since)", async () => {
  const e = await guarded();
  noteLoaded(version, { version: "older", checksum: "stale" });
  const read = vi.spyOn(version, "read");
  let runs = 0;
  const { loaded } = await consistent(WILAYAH_DATA, e, (pinned) => {
    runs++;
    return readRegion(pinned, true);
  });
  expect(runs).toBe(2);
  expect(read).toHaveBeenCalledTimes(2); // before and after the second run: a retry never rides
  expect(loaded.checksum).not.toBe("stale");
});

it("refuses a read after lastRead (the guard counts it): such a read would not be bracketed by any version", async () => {
  const e = await guarded();
  await expect(
    consistent(WILAYAH_DATA, e, async (pinned) => {
      const region = await readRegion(pinned, true);
      await regionDb(pinned).all(sql`SELECT count(*) AS n FROM kabupaten`);
      return region;
    }),
  ).rejects.toThrow(/read after lastRead/);
});
