import { describe, expect, it } from "vitest";
import { LookupCache } from "./lookup-cache";

describe("the isolate's key lookup cache", () => {
  it("a flood of misses never evicts a known key", () => {
    const cache = new LookupCache();
    cache.set("known", { ok: true, keyId: "key_1", userId: "user_1", plan: "free", suspended: false, at: 1 });
    for (let i = 0; i < 50_000; i++) cache.set(`miss-${i}`, { ok: false, at: 1 });
    expect(cache.get("known")).toMatchObject({ ok: true, keyId: "key_1" });
    expect(cache.get("miss-49999")).toMatchObject({ ok: false });
    expect(cache.get("miss-0")).toBeUndefined(); // misses are bounded on their own
  });
});
