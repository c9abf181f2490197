/**
 * The architecture as rules (`npm run lint` runs them; CI too). One direction of flow:
 * request -> src/app.ts -> a surface (routes, data, mcp, openapi, portal) -> a feature's service ->
 * its queries -> src/db. The bottom (lib, http) imports no feature. Unit tests (*.test.ts) are not
 * cruised: a test may import whatever it checks. The tools (scripts/, bench/) are cruised too: the
 * app never imports them, the scripts never import the benchmark, and no module of either is in a circle.
 */
module.exports = {
  forbidden: [
    {
      name: "lib-is-the-bottom",
      comment: "src/lib is pure helpers: it imports nothing of the app but itself (no feature, no HTTP toolkit, no database schema).",
      severity: "error",
      from: { path: "^src/lib/" },
      to: { path: "^src/", pathNot: "^src/lib/" },
    },
    {
      name: "http-imports-no-feature",
      comment: "src/http is the Hono toolkit (error handlers, validation, docs helpers, CORS, context types): it may use lib, never a feature.",
      severity: "error",
      from: { path: "^src/http/" },
      to: { path: "^src/", pathNot: "^src/(http|lib)/" },
    },
    {
      name: "no-auth-or-keys-with-http",
      comment:
        "Guards live with their owners and services know nothing of HTTP: auth and keys import nothing from src/http (and http nothing from them, above).",
      severity: "error",
      from: { path: "^src/(auth|keys|webhooks)/" },
      to: { path: "^src/http/" },
    },
    {
      name: "regional-data-knows-no-accounts",
      comment: "The regional-data domains (wilayah, weather) never import accounts, keys, billing, admin or the surfaces above them.",
      severity: "error",
      from: { path: "^src/(wilayah|weather)/" },
      to: { path: "^src/(auth|keys|account|billing|admin|webhooks|jobs|routes|mcp|openapi|portal)/|^src/(app|catalogue|index)\\.ts$" },
    },
    {
      name: "billing-above-account",
      comment: "billing imports the account (admission, plans, ledger), never the reverse.",
      severity: "error",
      from: { path: "^src/account/" },
      to: { path: "^src/(billing|admin)/" },
    },
    {
      name: "features-below-surfaces",
      comment: "Services and queries never reach up into a surface (REST routes, MCP, the API document, the portal) or the app's composition.",
      severity: "error",
      from: { path: "^src/(auth|keys|account|billing|admin|webhooks|jobs|wilayah|weather|db)/" },
      to: { path: "^src/(routes|mcp|openapi|portal)/|^src/(app|catalogue|index)\\.ts$" },
    },
    {
      name: "data-plane-below-catalogue",
      comment: "The data plane (src/data) runs any declared endpoint; the catalogue above it lists them, so it imports no domain.",
      severity: "error",
      from: { path: "^src/data/" },
      to: { path: "^src/(wilayah|weather|account|billing|admin|routes|mcp|openapi|portal)/|^src/(app|catalogue|index)\\.ts$" },
    },
    {
      name: "account-object-keeps-its-store",
      comment:
        "The account object's own SQLite (src/account/store.ts, and its request log in request-store.ts) is the object's alone (object.ts and its parts, object-*.ts): the isolate side talks to the object by RPC.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/account/object[-a-z]*\\.ts$" },
      to: { path: "^src/account/(store|request-store)\\.ts$", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "queries-below-services",
      comment: "Within a capability: endpoints/routes -> service -> queries. Queries never import a service or a declaration.",
      severity: "error",
      from: { path: "^src/.+/queries\\.ts$" },
      to: { path: "/(service|endpoints|admission|usage)\\.ts$|^src/routes/" },
    },
    {
      name: "services-below-declarations",
      comment: "A service holds the rules and knows nothing of its endpoints, routes or HTTP.",
      severity: "error",
      from: { path: "^src/.+/service\\.ts$" },
      to: { path: "/endpoints\\.ts$|^src/(routes|http)/" },
    },
    {
      name: "services-know-no-hono",
      comment:
        "A service and its queries know nothing of HTTP, the Hono toolkit included: they return values or throw ApiError; guards read requests and surfaces shape answers.",
      severity: "error",
      from: { path: "^src/.+/(service|queries)\\.ts$" },
      to: { path: "^node_modules/(hono|@hono/|hono-openapi)" },
    },
    {
      name: "rooms-hold-no-routes",
      comment:
        "One convention for routes: surfaces own HTTP (src/routes, src/data/rest.ts, src/mcp, src/ogc, src/openapi, src/portal, src/site). A capability's room imports no Hono router, middleware or request at run time (types, and rendering with hono/jsx or hono/html, aside).",
      severity: "error",
      from: { path: "^src/(auth|keys|account|billing|admin|audit|webhooks|jobs|reports|wilayah|weather|tiles|db|lib)/" },
      to: {
        path: "^node_modules/(hono|@hono/|hono-openapi)",
        pathNot: "^node_modules/hono/dist/(types/)?(jsx|helper/html)/",
        dependencyTypesNot: ["type-only"],
      },
    },
    {
      name: "no-circular-folders",
      comment: "No cycle between folders: a folder's dependencies all point one way.",
      severity: "error",
      scope: "folder",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "no-circular",
      comment: "No cycle between modules (the app's, the scripts' and the benchmark's).",
      severity: "error",
      from: { path: "^(src|scripts|bench)/" },
      to: { circular: true },
    },
    {
      name: "app-imports-no-tools",
      comment: "The Worker never imports the node-side tools (seed build, generators, benchmark): they import the app, not the reverse.",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^(scripts|bench)/" },
    },
    {
      name: "scripts-below-bench",
      comment: "The benchmark may use the scripts (seed readers, the D1 shim); the scripts never import the benchmark.",
      severity: "error",
      from: { path: "^scripts/" },
      to: { path: "^bench/" },
    },
    {
      name: "not-to-unresolvable",
      severity: "error",
      from: { path: "^(src|scripts|bench)/" },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // Unit tests beside their module may import anything (scripts, fixtures); the rules are about the app.
    // Packages stay in the graph (not followed) so that a rule can name one (services-know-no-hono).
    exclude: { path: "\\.test\\.tsx?$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".json"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
