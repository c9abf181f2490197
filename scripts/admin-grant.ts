/**
 * Makes a user an administrator, in the local D1 or (with --remote) the deployed one.
 *
 *   npm run admin:grant -- someone@example.com            # local (wrangler dev's D1)
 *   npm run admin:grant -- someone@example.com --remote   # production D1
 *   npm run admin:grant -- someone@example.com --revoke   # take the rights away
 */
import { spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const email = args.find((a) => !a.startsWith("--"))?.trim().toLowerCase();
if (!email || !/^[^\s@']+@[^\s@']+$/.test(email)) {
  console.error("usage: npm run admin:grant -- <email> [--remote] [--revoke]");
  process.exit(2);
}
const target = args.includes("--remote") ? "--remote" : "--local";
const flag = args.includes("--revoke") ? 0 : 1;
const wrangler = join(root, "node_modules", ".bin", "wrangler");
const sql = `UPDATE users SET is_admin = ${flag} WHERE email = '${email}' RETURNING id, email, is_admin`;
const r = spawnSync(wrangler, ["d1", "execute", "DB", target, "--json", "--command", sql], {
  cwd: root,
  encoding: "utf8",
  env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
});
if (r.status !== 0) {
  process.stderr.write(r.stderr || r.stdout);
  process.exit(1);
}
const rows = (JSON.parse(r.stdout) as { results: unknown[] }[])[0]?.results ?? [];
if (rows.length === 0) {
  console.error(`No user with email ${email} in the ${target.slice(2)} database. Register first (POST /auth/register).`);
  process.exit(1);
}
console.log(`${email} is ${flag ? "now an administrator" : "no longer an administrator"} (${target.slice(2)}). It applies to the next request: rights are read from D1, not from the token.`);
