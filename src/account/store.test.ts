import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { AccountStore, type Sql } from "./store";

/** The Agent's `sql` template over an in-memory SQLite, as the object's storage runs it. */
function sqlOf(db: DatabaseSync): Sql {
  return ((strings: TemplateStringsArray, ...values: (string | number | boolean | null)[]) =>
    db.prepare(strings.join("?")).all(...values.map((v) => (typeof v === "boolean" ? Number(v) : v)))) as Sql;
}

describe("account/store", () => {
  it("keeps one typed state row, read back by a new store (an object waking up)", () => {
    const db = new DatabaseSync(":memory:");
    const store = new AccountStore(sqlOf(db));
    expect(store.state).toEqual({ pendingDebit: 0, owedToReservations: 0, flushDebit: null, flushScheduled: false });
    store.setState({ pendingDebit: 3, flushDebit: { amount: 3, ref: "usage:u:1" }, flushScheduled: true });
    expect(new AccountStore(sqlOf(db)).state).toEqual({
      pendingDebit: 3,
      owedToReservations: 0,
      flushDebit: { amount: 3, ref: "usage:u:1" },
      flushScheduled: true,
    });
  });

  it("takes over the state an older object kept in account_meta, once, losing no debit", () => {
    const db = new DatabaseSync(":memory:");
    db.exec("CREATE TABLE account_meta (k TEXT PRIMARY KEY, v TEXT NOT NULL)");
    const meta = db.prepare("INSERT INTO account_meta (k, v) VALUES (?, ?)");
    meta.run("pending_debit", "7");
    meta.run("reservation_debits", "2");
    meta.run("flush_debit", JSON.stringify({ amount: 5, ref: "usage:u:abc" }));
    meta.run("flush_pending", "1");
    meta.run("user_id", "u");
    const store = new AccountStore(sqlOf(db));
    expect(store.state).toEqual({ pendingDebit: 7, owedToReservations: 2, flushDebit: { amount: 5, ref: "usage:u:abc" }, flushScheduled: true });
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'account_meta'").get()).toEqual({ n: 0 });
    expect(new AccountStore(sqlOf(db)).state.pendingDebit).toBe(7);
  });

  it("a ticket remembers what it counted and whether it was given back", () => {
    const store = new AccountStore(sqlOf(new DatabaseSync(":memory:")));
    store.remember("t1", { keyId: "k", endpoint: "/e", day: "2026-11-27", calls: 3, credits: 1 }, false, 1_000);
    expect(store.ticket("t1")).toEqual({ keyId: "k", endpoint: "/e", day: "2026-11-27", calls: 3, credits: 1, done: false });
    store.markDone("t1");
    expect(store.ticket("t1")?.done).toBe(true);
    store.forgetTicketsBefore(2_000);
    expect(store.ticket("t1")).toBeUndefined();
  });
});
