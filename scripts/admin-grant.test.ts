import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { d1, root, sqlString, toolEnv } from "./lib.ts";
import { applyMigrations } from "./migrate.ts";

const state = mkdtempSync(join(tmpdir(), "wilayah-state-"));
afterAll(() => rmSync(state, { recursive: true, force: true }));

it("admin:grant makes an admin in the state WRANGLER_PERSIST_TO names (the one npm run dev serves), not in .wrangler/state", () => {
  applyMigrations({ persistTo: state });
  const email = "second-state@example.test";
  d1(
    `INSERT INTO users (id, email, name, password_hash, email_verified, plan, created_at) VALUES ('user_state2', ${sqlString(email)}, 'x', '!', 1, 'free', 0)`,
    {
      persistTo: state,
    },
  );
  // The script as a developer runs it (npm run admin:grant), with only the variable to say where.
  const r = spawnSync(process.execPath, [join(root, "scripts", "admin-grant.ts"), email], {
    cwd: root,
    env: { ...toolEnv, WRANGLER_PERSIST_TO: state },
    encoding: "utf8",
  });
  expect(r.stderr).not.toMatch(/No user/);
  expect(r.status).toBe(0);
  expect(r.stdout).toMatch(/now an administrator \(local\)/);
  expect(d1(`SELECT is_admin FROM users WHERE email = ${sqlString(email)}`, { persistTo: state })).toEqual([{ is_admin: 1 }]);
}, 300_000); // three wrangler starts, each several seconds (tens on a busy machine)
