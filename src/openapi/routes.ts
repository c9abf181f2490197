/**
 * The API describing itself: GET /openapi.json (the OpenAPI 3.1 document) and GET /docs (an API
 * reference page on it, Swagger UI, whose "Try it out" calls this same deployment). The page's
 * library files are Workers static assets under /docs/vendor/ (scripts/docs-assets.ts); the page
 * itself runs no inline script, so its Content-Security-Policy allows scripts from 'self' only.
 */
import { Hono } from "hono";
import { publicRoute } from "../gate";
import type { BaseEnv } from "../http/context";
import { apiDocument } from "./document";

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Wilayah API reference</title>
<link rel="stylesheet" href="/docs/vendor/swagger-ui.css">
</head>
<body>
<p class="guides-link"><a href="/docs/guide">Guides: the rules behind the fields</a> · <a href="/">Wilayah API</a></p>
<div id="swagger-ui"></div>
<script src="/docs/vendor/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/** Swagger UI on our document; no calls anywhere else (no online validator badge). */
const INIT = `window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  persistAuthorization: true,
  validatorUrl: null,
  tryItOutEnabled: false,
});
`;

const PAGE_HEADERS = {
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "public, max-age=300",
};

/** Routes over `app`'s own route table. */
export function apiDocRoutes(app: Hono<BaseEnv>) {
  return new Hono<BaseEnv>()
    .get("/openapi.json", publicRoute, async (c) => {
      c.header("cache-control", "public, max-age=300");
      c.header("access-control-allow-origin", "*");
      return c.json(await apiDocument(app, c.env, new URL(c.req.url).origin));
    })
    .get("/docs", publicRoute, (c) => c.html(PAGE, 200, PAGE_HEADERS))
    .get("/docs/init.js", publicRoute, (c) => c.body(INIT, 200, { ...PAGE_HEADERS, "content-type": "text/javascript; charset=utf-8" }));
}
