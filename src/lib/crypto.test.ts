import { describe, expect, it } from "vitest";
import { hex, sha256Hex, timeOrderedUuid, uuidTime } from "./crypto";

describe("lib/crypto", () => {
  it("hex: two lower-case digits per byte", async () => {
    expect(hex(new Uint8Array([0, 1, 15, 16, 171, 255]))).toBe("00010f10abff");
    expect(hex(new Uint8Array())).toBe("");
    // The SHA-256 test vector of "abc" (FIPS 180-2).
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("timeOrderedUuid: a UUID version 7 whose time reads back; later ids sort after", () => {
    const at = Date.UTC(2026, 11, 5, 7, 2, 13, 456);
    const id = timeOrderedUuid(at);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidTime(id)).toBe(at);
    expect(timeOrderedUuid(at + 1) > timeOrderedUuid(at)).toBe(true);
    expect(uuidTime(crypto.randomUUID())).toBeUndefined();
    expect(uuidTime("not an id")).toBeUndefined();
  });
});
