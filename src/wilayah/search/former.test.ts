import { describe, expect, it } from "vitest";
import { TERM_SEPARATOR as S } from "../normalize";
import { matchedFormer, tierIn } from "./former";

describe("former-name matches", () => {
  it("ranks a query inside a spelling as the suffix index does", () => {
    expect(tierIn("mamuju utara", "mamuju utara")).toBe(0);
    expect(tierIn("mamuju utara", "mamuju")).toBe(1);
    expect(tierIn("kabupaten mamuju utara", "utara")).toBe(2);
    expect(tierIn("kota tanjung-balai", "balai")).toBe(2);
    expect(tierIn("pasangkayu", "kayu")).toBe(3);
    expect(tierIn("pasangkayu", "bandung")).toBe(4);
  });

  it("is former only when no current spelling matches as well", () => {
    const terms = `${S}kabupaten pasangkayu${S}pasangkayu${S}kabupaten mamuju utara${S}mamuju utara${S}`;
    const former = `${S}kabupaten mamuju utara${S}mamuju utara${S}`;
    expect(matchedFormer(terms, former, "mamuju utara", "exact")).toBe(true);
    expect(matchedFormer(terms, former, "pasangkayu", "exact")).toBe(false);
    expect(matchedFormer(terms, former, "kabupaten", "prefix")).toBe(false);
    expect(matchedFormer(terms, null, "mamuju utara", "exact")).toBe(false);
    expect(matchedFormer(terms, former, null, "code")).toBe(false);
  });
});
