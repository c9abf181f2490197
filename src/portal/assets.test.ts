import { describe, expect, it } from "vitest";
import { JS } from "./assets";

describe("portal/assets", () => {
  it("app.js parses (it is a template literal: a `\\r` written once there is a line break in a regex, a syntax error that stops every script of the portal)", () => {
    expect(() => new Function(JS)).not.toThrow();
  });
});
