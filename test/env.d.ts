/// <reference types="@cloudflare/vitest-pool-workers/types" />
declare module "*.sql?raw" {
  const text: string;
  export default text;
}
