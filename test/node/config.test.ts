import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "..", "..");

it("each paid and free plan's rate_limit_per_minute equals its rate-limit binding in wrangler.toml", () => {
  const toml = readFileSync(join(root, "wrangler.toml"), "utf8");
  const bindings = Object.fromEntries(
    [...toml.matchAll(/name = "RL_(\w+)"\s+namespace_id = "\d+"\s+simple = \{ limit = (\d+), period = 60 \}/g)].map((m) => [m[1].toLowerCase(), Number(m[2])]),
  );
  const sql = readFileSync(join(root, "migrations", "0005_plans.sql"), "utf8");
  const plans = Object.fromEntries([...sql.matchAll(/\('(\w+)', '[^']+', \d+, \d+, (\d+|NULL),/g)].map((m) => [m[1], m[2] === "NULL" ? null : Number(m[2])]));
  expect(plans).toEqual({ free: 30, starter: 120, pro: 600, business: 1800, internal: null });
  for (const [plan, rate] of Object.entries(plans)) if (rate !== null) expect(bindings[plan], plan).toBe(rate);
});

it('a deploy is production unless told otherwise: wrangler.toml says ENVIRONMENT = "production"; npm run dev says development', () => {
  const toml = readFileSync(join(root, "wrangler.toml"), "utf8");
  expect(/^ENVIRONMENT = "(\w+)"/m.exec(toml)?.[1]).toBe("production");
  expect(readFileSync(join(root, "scripts", "dev.ts"), "utf8")).toContain("ENVIRONMENT:development");
});

it(".dev.vars.example's session secret placeholders fail the secret rule (JWT_SECRET and JWT_SECRET_PREVIOUS alike)", async () => {
  const { secretProblem } = await import("../../src/auth/tokens.ts");
  const example = readFileSync(join(root, ".dev.vars.example"), "utf8");
  const placeholders = [...example.matchAll(/^#?\s*(JWT_SECRET(?:_PREVIOUS)?)=(\S*)/gm)].map((m) => [m[1], m[2]] as const);
  expect(placeholders.map(([k]) => k).sort()).toEqual(["JWT_SECRET", "JWT_SECRET_PREVIOUS"]);
  for (const [name, value] of placeholders) expect(secretProblem(value), name).not.toBeNull();
  expect(secretProblem("x".repeat(40))).not.toBeNull(); // long but not random
  expect(secretProblem("q8Zt1vX0bK3mR7pL2sW9cY4nH6jD5fGa")).toBeNull();
});
