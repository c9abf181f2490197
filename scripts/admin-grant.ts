/**
 * Makes a user an administrator, in the local D1 or (with --remote) the deployed one.
 *
 *   npm run admin:grant -- someone@example.com            # local (wrangler dev's D1)
 *   npm run admin:grant -- someone@example.com --remote   # production D1
 *   npm run admin:grant -- someone@example.com --revoke   # take the rights away
 *
 * Locally it writes the state `npm run dev` serves: WRANGLER_PERSIST_TO when set (scripts/lib.ts).
 */
import { d1, sqlString } from "./lib.ts";

const args = process.argv.slice(2);
const email = args
  .find((a) => !a.startsWith("--"))
  ?.trim()
  .toLowerCase();
if (!email || !/^[^\s@']+@[^\s@']+$/.test(email)) {
  console.error("usage: npm run admin:grant -- <email> [--remote] [--revoke]");
  process.exit(2);
}
const remote = args.includes("--remote");
const where = remote ? "remote" : "local";
const flag = args.includes("--revoke") ? 0 : 1;
try {
  const rows = d1(`UPDATE users SET is_admin = ${flag} WHERE email = ${sqlString(email)} RETURNING id, email, is_admin`, { remote });
  if (rows.length === 0) {
    console.error(`No user with email ${email} in the ${where} database. Register first (POST /auth/register).`);
    process.exit(1);
  }
  console.log(
    `${email} is ${flag ? "now an administrator" : "no longer an administrator"} (${where}). It applies to the next request: rights are read from D1, not from the token.`,
  );
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
