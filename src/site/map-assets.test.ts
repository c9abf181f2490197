import { describe, expect, it } from "vitest";
import { MAP_JS } from "./map-assets";

describe("site/map-assets", () => {
  it("sends the site map's token with every tile, whose URL ends in the tiles' id (?v=), and with nothing else", () => {
    // map.js is a template literal: a regular expression written there loses its backslashes (a
    // tile test once became a comment, and no tile carried the token). The function as served:
    const source = /transformRequest: (function \(url\) \{[^\n]*\}),\n/.exec(MAP_JS)?.[1];
    expect(source).toBeDefined();
    const token = "tok";
    const transform = new Function("token", `return ${source};`)(token) as (url: string) => { url: string; headers?: Record<string, string> };
    expect(transform("http://127.0.0.1:8787/tiles/9/408/264.mvt?v=633fc411ecf76be5").headers).toEqual({ "x-map-token": token });
    expect(transform("http://127.0.0.1:8787/tiles/0/0/0.mvt").headers).toEqual({ "x-map-token": token });
    expect(transform("http://127.0.0.1:8787/tiles/style.json?maxzoom=9").headers).toBeUndefined();
  });
});
