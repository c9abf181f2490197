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
/** Vite's glob import, for a test that reads every file of a folder (test/site/docs.test.ts: docs/*.md). */
interface ImportMeta {
  glob(pattern: string, options: { query: "?raw"; import: "default"; eager: true }): Record<string, string>;
}
