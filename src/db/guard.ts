/**
 * Development only: D1's production limits, which local D1 (miniflare's SQLite) does not enforce.
 * With ENVIRONMENT = "development" and D1_GUARD = "on" (set by the Worker tests in vitest.config.ts,
 * by `npm run dev` and by the bench's Worker; never by wrangler.toml), the `DB` binding is wrapped
 * once where an invocation enters (src/index.ts; the account object per operation), and a statement
 * that production would refuse is refused here, with production's message:
 * - more than 100 bound parameters in one statement;
 * - a statement over 100,000 bytes (its SQL text, UTF-8);
 * - a LIKE or GLOB pattern over 50 bytes: the right operand of LIKE/GLOB when it is a string literal,
 *   a `?` parameter (its bound value) or a `||` chain of those (the sum); any other operand (a column,
 *   a function call) is not checked. Literals and quoted names are skipped when scanning the SQL, so a
 *   "like" inside a string is no operator;
 * - more than 1,000 D1 queries in one invocation (the paid plan's limit; the free plan allows 50):
 *   each run/all/first/raw of a prepared statement and each statement of a batch counts one.
 * A breach is our bug, not a dependency's: the error matches none of src/lib/dependency.ts's
 * transient messages, so the request fails as a logged 500 and a test sees it.
 */

export const D1_LIMITS = { params: 100, statementBytes: 100_000, patternBytes: 50, queries: 1_000 } as const;

type Counter = { queries: number; limit: number };
type Source = { sql: string; params: unknown[] };

const bytes = (s: string) => new TextEncoder().encode(s).length;

/** The SQL's tokens that matter here: string literals, `?` parameters (numbered in order), words, `||`. */
type Token = { kind: "literal"; text: string } | { kind: "param"; index: number } | { kind: "word"; text: string } | { kind: "concat" } | { kind: "other" };

function tokens(sql: string): Token[] {
  const out: Token[] = [];
  let param = 0;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    if (ch === "'") {
      let text = "";
      i++;
      while (i < sql.length) {
        if (sql[i] === "'" && sql[i + 1] === "'") {
          text += "'";
          i += 2;
        } else if (sql[i] === "'") break;
        else text += sql[i++];
      }
      i++;
      out.push({ kind: "literal", text });
    } else if (ch === '"' || ch === "`" || ch === "[") {
      const close = ch === "[" ? "]" : ch;
      i = sql.indexOf(close, i + 1);
      i = i < 0 ? sql.length : i + 1;
      out.push({ kind: "other" });
    } else if (ch === "?") {
      i++;
      let digits = "";
      while (i < sql.length && /\d/.test(sql[i] as string)) digits += sql[i++];
      // ?NNN names its parameter (1-based); a bare ? takes the next one.
      const index = digits ? Number(digits) - 1 : param;
      param = index + 1;
      out.push({ kind: "param", index });
    } else if (ch === "|" && sql[i + 1] === "|") {
      i += 2;
      out.push({ kind: "concat" });
    } else if (/[A-Za-z_]/.test(ch)) {
      let text = "";
      while (i < sql.length && /\w/.test(sql[i] as string)) text += sql[i++];
      out.push({ kind: "word", text: text.toUpperCase() });
    } else if (/\s/.test(ch)) i++;
    else {
      i++;
      out.push({ kind: "other" });
    }
  }
  return out;
}

/** The byte length of each LIKE/GLOB pattern the guard can read (see the module comment). */
function patternLengths(sql: string, params: unknown[]): number[] {
  // Most statements have neither word: skip reading them character by character (the guard runs on every query).
  if (!/like|glob/i.test(sql)) return [];
  const ts = tokens(sql);
  const lengths: number[] = [];
  ts.forEach((t, i) => {
    if (t.kind !== "word" || (t.text !== "LIKE" && t.text !== "GLOB")) return;
    let total = 0;
    for (let j = i + 1; j < ts.length; j += 2) {
      const operand = ts[j] as Token;
      if (operand.kind === "literal") total += bytes(operand.text);
      else if (operand.kind === "param") {
        const value = params[operand.index];
        if (typeof value === "string") total += bytes(value);
        else if (value !== null && value !== undefined) total += bytes(String(value));
      } else return; // an operand the guard cannot read: not checked
      if (ts[j + 1]?.kind !== "concat") break;
    }
    lengths.push(total);
  });
  return lengths;
}

/** D1's error for a breach, worded as production words it. */
function d1Error(message: string): Error {
  return new Error(`D1_ERROR: ${message}`);
}

/** Why production would refuse this statement, or null. */
function statementBreach({ sql, params }: Source): string | null {
  if (params.length > D1_LIMITS.params) return `too many SQL variables (${params.length} bound, the limit is ${D1_LIMITS.params}): SQLITE_ERROR`;
  const size = bytes(sql);
  if (size > D1_LIMITS.statementBytes) return `statement too long (${size} bytes, the limit is ${D1_LIMITS.statementBytes}): SQLITE_TOOBIG`;
  const pattern = patternLengths(sql, params).find((n) => n > D1_LIMITS.patternBytes);
  if (pattern !== undefined) return `LIKE or GLOB pattern too complex (${pattern} bytes, the limit is ${D1_LIMITS.patternBytes}): SQLITE_ERROR`;
  return null;
}

function check(sources: Source[], counter: Counter): void {
  counter.queries += sources.length;
  if (counter.queries > counter.limit) throw d1Error(`Too many API requests by single worker invocation (more than ${counter.limit} D1 queries)`);
  for (const s of sources) {
    const breach = statementBreach(s);
    if (breach) throw d1Error(breach);
  }
}

/** The real statement and what it will run, for a guarded statement handed to batch(). */
const sources = new WeakMap<object, { target: D1PreparedStatement } & Source>();

function guardedStatement(target: D1PreparedStatement, source: Source, counter: Counter): D1PreparedStatement {
  const run =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      check([source], counter);
      return call(...args);
    };
  const proxy = new Proxy(target, {
    get(t, prop) {
      if (prop === "bind") return (...values: unknown[]) => guardedStatement(t.bind(...values), { sql: source.sql, params: values }, counter);
      if (prop === "run" || prop === "all" || prop === "first" || prop === "raw") {
        const method = Reflect.get(t, prop, t) as (...args: unknown[]) => Promise<unknown>;
        return run((...args: unknown[]) => method.apply(t, args));
      }
      const value = Reflect.get(t, prop, t);
      return typeof value === "function" ? value.bind(t) : value;
    },
  });
  sources.set(proxy, { target, ...source });
  return proxy;
}

type Handle = D1Database | D1DatabaseSession;

function guardedHandle<H extends Handle>(db: H, counter: Counter): H {
  return new Proxy(db, {
    get(t, prop) {
      if (prop === QUERIES) return counter.queries;
      if (prop === "prepare") return (sql: string) => guardedStatement(t.prepare(sql), { sql, params: [] }, counter);
      if (prop === "batch")
        return async (statements: D1PreparedStatement[]) => {
          const known = statements.map((s) => sources.get(s));
          check(
            known.map((k, i) => k ?? { sql: "", params: [], target: statements[i] as D1PreparedStatement }),
            counter,
          );
          return t.batch(statements.map((s, i) => known[i]?.target ?? s));
        };
      if (prop === "withSession") return (...args: unknown[]) => guardedHandle((t as D1Database).withSession(...(args as [string])), counter);
      const value = Reflect.get(t, prop, t);
      return typeof value === "function" ? value.bind(t) : value;
    },
  }) as H;
}

const QUERIES = Symbol("queries so far");

/** The queries the guard counted on `db` so far in this invocation; undefined when `db` is not guarded (production). */
export function queriesSoFar(db: D1Database | D1DatabaseSession): number | undefined {
  return (db as unknown as { [QUERIES]?: number })[QUERIES];
}

/** `db` guarded with a query budget of its own (one invocation's). */
export function guardD1(db: D1Database, limit: number = D1_LIMITS.queries): D1Database {
  return guardedHandle(db, { queries: 0, limit });
}

/** Whether this Worker runs with the guard: development with D1_GUARD = "on" only. */
function d1GuardOn(env: Env): boolean {
  return env.ENVIRONMENT === "development" && env.D1_GUARD === "on";
}

/** `env` with its DB guarded for one invocation when the guard is on; `env` itself otherwise. */
export function guardedEnv(env: Env): Env {
  return d1GuardOn(env) ? { ...env, DB: guardD1(env.DB) } : env;
}
