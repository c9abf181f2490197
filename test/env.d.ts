/// <reference types="@cloudflare/vitest-plugin/types" />
declare module "*.sql?raw" {
  const text: string;
  export default text;
}
/** Any file's text (bulk export test files: CSV, GeoJSON, LICENSE). */
declare module "*?raw" {
  const text: string;
  export default text;
}
