import { describe, expect, it } from "vitest";
import { hex, sha256Hex } from "./crypto";

describe("lib/crypto", () => {
  it("hex: two lower-case digits per byte", async () => {
    expect(hex(new Uint8Array([0, 1, 15, 16, 171, 255]))).toBe("00010f10abff");
    expect(hex(new Uint8Array())).toBe("");
    // The SHA-256 test vector of "abc" (FIPS 180-2).
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
