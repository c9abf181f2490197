import { describe, expect, it } from "vitest";
import { ApiError } from "../lib/errors";
import { parseJsonText } from "./body";

describe("http/body", () => {
  it("reads JSON text, and refuses what is not JSON as 400 INVALID_JSON naming what was read", () => {
    expect(parseJsonText('{"a":[1,2]}')).toEqual({ a: [1, 2] });
    for (const bad of ["", "{not json", "{'a':1}", '{"a":1'])
      expect(() => parseJsonText(bad), bad).toThrowError(expect.objectContaining({ code: "INVALID_JSON", message: "The request body is not valid JSON." }));
    const e = (() => {
      try {
        parseJsonText("{", "The callback body");
      } catch (caught) {
        return caught;
      }
    })();
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ code: "INVALID_JSON", status: 400, message: "The callback body is not valid JSON." });
  });
});
