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
