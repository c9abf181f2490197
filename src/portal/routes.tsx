/** @jsxImportSource hono/jsx */
/**
 * The developer portal: a third surface beside REST and MCP, mounted at /portal. Server-rendered
 * pages (Hono JSX) and HTML forms, one module per page (auth, keys, usage, requests, webhooks, addresses, reports, billing, admin); each
 * handler parses its form with the API's own rules, calls the same feature service the REST route
 * calls (same verification, key limits, quota, admin check), and renders or redirects. The session
 * is the API's JWT in an HttpOnly cookie (session.ts). This file mounts the pages behind the
 * portal's headers, CSRF check and session, and answers errors as pages.
 */
import { type ErrorHandler, Hono } from "hono";
import { publicRoute } from "../gate";
import { failureAnswer } from "../lib/dependency";
import { ApiError } from "../lib/errors";
import { addressPages } from "./addresses";
import { adminPages } from "./admin";
import { CSS, JS, RECEIPT_CSS } from "./assets";
import { authPages } from "./auth";
import { billingPages } from "./billing";
import { type PortalEnv, page } from "./context";
import { errorText, translator } from "./i18n";
import { jobPages } from "./jobs";
import { keyPages } from "./keys";
import { ErrorPage, type Page } from "./layout";
import { paymentPages } from "./payment";
import { reportPages } from "./reports";
import { requestPages } from "./requests";
import { securityPages } from "./security";
import { checkCsrf, securityHeaders } from "./session";
import { usagePages } from "./usage";
import { webhookPages } from "./webhooks";

export const portalRoutes = new Hono<PortalEnv>();

// ---------------------------------------------------------------- assets (no session needed)

const ASSET_CACHE = "public, max-age=300";
portalRoutes.get("/assets/app.css", publicRoute, (c) =>
  c.body(CSS, 200, { "content-type": "text/css; charset=utf-8", "cache-control": ASSET_CACHE, "x-content-type-options": "nosniff" }),
);
portalRoutes.get("/assets/receipt.css", publicRoute, (c) =>
  c.body(RECEIPT_CSS, 200, { "content-type": "text/css; charset=utf-8", "cache-control": ASSET_CACHE, "x-content-type-options": "nosniff" }),
);
portalRoutes.get("/assets/app.js", publicRoute, (c) =>
  c.body(JS, 200, { "content-type": "text/javascript; charset=utf-8", "cache-control": ASSET_CACHE, "x-content-type-options": "nosniff" }),
);

portalRoutes.use("*", securityHeaders);
portalRoutes.use("*", checkCsrf);
// Who is signed in (`portalUser`) is the gate's to decide (src/gate): each page declares `visitor` or `signedIn`.

portalRoutes.route("/", authPages);
portalRoutes.route("/", keyPages);
portalRoutes.route("/", usagePages);
portalRoutes.route("/", requestPages);
portalRoutes.route("/", addressPages);
portalRoutes.route("/", jobPages);
portalRoutes.route("/", billingPages);
portalRoutes.route("/", paymentPages);
portalRoutes.route("/", adminPages);
portalRoutes.route("/", securityPages);
portalRoutes.route("/", webhookPages);
portalRoutes.route("/", reportPages);

/** Portal pages answer errors as pages, not JSON (also the gate's refusals: src/app.ts hands /portal's to this). */
export const portalErrorPage: ErrorHandler<PortalEnv> = (caught, c) => {
  // The same answer as the API's (a dependency that failed for a moment is 503 here too), shown in words.
  const err = failureAnswer(caught, { request_id: c.get("requestId"), path: c.req.path }, "portal_error");
  const { code, status } = err;
  // Retry-After of a 429, Allow of a 405: the page carries them as the API's answer does.
  for (const [k, v] of Object.entries(err.extra.headers ?? {})) c.header(k, v);
  let p: Page;
  try {
    p = page(c);
  } catch {
    p = { lang: "en", t: translator("en"), csrf: "", path: "/portal", user: null };
  }
  // An error of ours names no internals: the page says so in the reader's language.
  const message = errorText(p.lang, code, caught instanceof ApiError || err.code !== "INTERNAL_ERROR" ? err.message : p.t("error_internal"));
  if (c.req.header("accept")?.includes("application/json") && !c.req.header("accept")?.includes("text/html")) {
    return c.json({ error: { code, message, request_id: c.get("requestId") } }, status);
  }
  return c.html(<ErrorPage p={p} status={status} message={message} />, status);
};
portalRoutes.onError(portalErrorPage);
