import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { D1_LIMITS, guardD1, guardedEnv } from "../../src/db/guard";

/** The guard on the test's real local D1: just under each limit runs, just over is refused as production refuses it. */
describe("D1 guard (src/db/guard.ts): production's limits in development", () => {
  const values = (n: number) => Array.from({ length: n }, (_, i) => i);
  const selectOf = (n: number) => `SELECT ${Array.from({ length: n }, () => "?").join(" + ")} AS s`;

  it("is on in the Worker tests and off in production", () => {
    expect(env.D1_GUARD).toBe("on");
    expect(guardedEnv(env).DB).not.toBe(env.DB);
    const production = { ...env, ENVIRONMENT: "production" };
    expect(guardedEnv(production)).toBe(production);
  });

  it("more than 100 bound parameters in a statement", async () => {
    const db = guardD1(env.DB);
    expect(
      await db
        .prepare(selectOf(100))
        .bind(...values(100))
        .first("s"),
    ).toBe(4950);
    await expect(
      db
        .prepare(selectOf(101))
        .bind(...values(101))
        .first(),
    ).rejects.toThrow(/^D1_ERROR: too many SQL variables/);
    // In a batch too; nothing of the batch runs.
    await expect(db.batch([db.prepare("SELECT 1"), db.prepare(selectOf(101)).bind(...values(101))])).rejects.toThrow(/too many SQL variables/);
    expect(D1_LIMITS.params).toBe(100);
  });

  it("a statement over 100,000 bytes", async () => {
    const db = guardD1(env.DB);
    const padded = (size: number) => {
      const head = "SELECT 1 AS one /* ";
      return `${head}${"x".repeat(size - head.length - 3)} */`;
    };
    expect(new TextEncoder().encode(padded(100_000)).length).toBe(100_000);
    expect(await db.prepare(padded(100_000)).first("one")).toBe(1);
    await expect(db.prepare(padded(100_001)).all()).rejects.toThrow(/^D1_ERROR: statement too long/);
    await expect(db.prepare(padded(100_001)).run()).rejects.toThrow(/statement too long/);
  });

  it("a LIKE or GLOB pattern over 50 bytes: bound, literal, concatenated; bytes, not characters", async () => {
    const db = guardD1(env.DB);
    const like = "SELECT count(*) AS n FROM users WHERE email LIKE ?";
    expect(await db.prepare(like).bind("a".repeat(50)).first("n")).toBe(0);
    await expect(db.prepare(like).bind("a".repeat(51)).first()).rejects.toThrow(/^D1_ERROR: LIKE or GLOB pattern too complex/);
    // 26 characters of two bytes each: 52 bytes.
    await expect(db.prepare(like).bind("é".repeat(26)).first()).rejects.toThrow(/LIKE or GLOB pattern too complex/);
    await expect(db.prepare(`SELECT 1 WHERE 'x' GLOB '${"*".repeat(51)}'`).raw()).rejects.toThrow(/LIKE or GLOB pattern too complex/);
    await expect(db.prepare("SELECT 1 WHERE 'x' like ? || '%'").bind("a".repeat(50)).raw()).rejects.toThrow(/LIKE or GLOB pattern too complex/);
    // "like" inside a string or a quoted name is no operator; a pattern that is a column is not read.
    expect(
      await db
        .prepare(`SELECT '${"like ".repeat(20)}' AS "like" WHERE 'x' LIKE ?`)
        .bind("x")
        .first("like"),
    ).toBe("like ".repeat(20));
    expect(await db.prepare("SELECT count(*) AS n FROM users WHERE email LIKE email").first("n")).toEqual(expect.any(Number));
  });

  it("more than 1,000 D1 queries in one invocation: each run/all/first/raw and each statement of a batch; one budget per guarded binding, sessions included", async () => {
    const db = guardD1(env.DB);
    await db.batch(Array.from({ length: 997 }, () => db.prepare("SELECT 1")));
    await db.prepare("SELECT 1").run();
    await db.withSession("first-unconstrained").prepare("SELECT 1").first();
    await db.prepare("SELECT 1").raw(); // the 1,000th
    await expect(db.prepare("SELECT 1").all()).rejects.toThrow(/^D1_ERROR: Too many API requests by single worker invocation/);
    // The next invocation has a budget of its own.
    expect(await guardD1(env.DB).prepare("SELECT 1 AS one").first("one")).toBe(1);
  });
});
