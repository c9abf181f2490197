/** @jsxImportSource hono/jsx */
/** Portal pages for administrators: stats, users (search, paging), one user (suspend, grant credits or a subscription). */
import { Hono } from "hono";
import { z } from "zod";
import { type adminUserSchema, creditGrantInput, subscriptionGrantInput, userStatusInput } from "../admin/schemas";
import { adminGrantCredits, adminGrantSubscription, getUser, listUsers, overallStats, patchUser } from "../admin/service";
import { creditBalance, listPlans } from "../billing/service";
import { ApiError } from "../lib/errors";
import type { PlanView } from "./billing";
import { ListTable } from "./components";
import { adminOnly, errorNotice, flash, form, formInteger, origin, type PortalContext, type PortalEnv, page, type SignedInEnv, signedIn } from "./context";
import { formatNumber } from "./i18n";
import { Csrf, Layout, type Notice, NoticeBox, type Page, Pager } from "./layout";
import type { UsageView } from "./usage";

type AdminUserView = z.infer<typeof adminUserSchema>;
type KeyView = { name: string; prefix: string; last4: string; revoked_at: string | null };
type Paged = { page: number; total_pages: number };

export const adminPages = new Hono<PortalEnv>();

adminPages.get("/admin", signedIn, adminOnly, async (c) => {
  const q = (c.req.query("q") ?? "").slice(0, 100);
  const n = Number(c.req.query("page") ?? "1");
  const [stats, users] = await Promise.all([overallStats(c.env), listUsers(c.env, { q, page: Number.isInteger(n) && n > 0 ? n : 1, per_page: 20 })]);
  return c.html(<AdminPage p={page(c)} stats={stats} users={users.items} meta={users.meta} q={q} />);
});

async function adminUserPage(c: PortalContext<SignedInEnv>, id: string, notice: Notice, status: 200 | 400 | 404 = 200) {
  const [user, plans, balance] = await Promise.all([getUser(c.env, id), listPlans(c.env), creditBalance(c.env, id)]);
  return c.html(<AdminUserPage p={page(c)} notice={notice} user={user} plans={plans} balance={balance} />, status);
}

adminPages.get("/admin/users/:id", signedIn, adminOnly, async (c) => {
  return adminUserPage(c, c.req.param("id"), flash(c));
});

adminPages.post("/admin/users/:id/status", signedIn, adminOnly, async (c) => {
  const id = c.req.param("id");
  const { status } = await form(c, z.object({ status: userStatusInput }));
  await patchUser(c.env, id, { status }, { id: c.get("user").id, ...origin(c) });
  return c.redirect(`/portal/admin/users/${id}?msg=saved`, 303);
});

adminPages.post("/admin/users/:id/credits", signedIn, adminOnly, async (c) => {
  const u = c.get("user");
  const id = c.req.param("id");
  try {
    const { amount, reason } = await form(c, z.object({ ...creditGrantInput.shape, amount: z.preprocess(formInteger, creditGrantInput.shape.amount) }));
    await adminGrantCredits(c.env, id, amount, reason, { id: u.id, ...origin(c) });
    return c.redirect(`/portal/admin/users/${id}?msg=saved`, 303);
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) return adminUserPage(c, id, errorNotice(c, e), 400);
    throw e;
  }
});

adminPages.post("/admin/users/:id/subscription", signedIn, adminOnly, async (c) => {
  const id = c.req.param("id");
  try {
    const { plan_id, months } = await form(
      c,
      z.object({ ...subscriptionGrantInput.shape, months: z.preprocess(formInteger, subscriptionGrantInput.shape.months) }),
    );
    await adminGrantSubscription(c.env, id, plan_id, months, { id: c.get("user").id, ...origin(c) });
    return c.redirect(`/portal/admin/users/${id}?msg=saved`, 303);
  } catch (e) {
    if (e instanceof ApiError && e.status === 400) return adminUserPage(c, id, errorNotice(c, e), 400);
    throw e;
  }
});

// ---------------------------------------------------------------- views

function AdminPage(props: {
  p: Page;
  stats: { users: number; active_keys: number; calls_this_month: number; month: string };
  users: AdminUserView[];
  meta: Paged;
  q: string;
}) {
  const { p, stats } = props;
  return (
    <Layout p={p} title={p.t("admin_title")}>
      <h1>{p.t("admin_title")}</h1>
      <p>
        <a href="/portal/admin/reports?status=open" data-testid="admin-reports-link">
          {p.t("admin_reports_title")}
        </a>
      </p>
      <div class="grid">
        <div class="card">
          <div class="muted">{p.t("users")}</div>
          <div class="big">{formatNumber(p.lang, stats.users)}</div>
        </div>
        <div class="card">
          <div class="muted">{p.t("active_keys")}</div>
          <div class="big">{formatNumber(p.lang, stats.active_keys)}</div>
        </div>
        <div class="card">
          <div class="muted">
            {p.t("calls_this_month")} ({stats.month})
          </div>
          <div class="big">{formatNumber(p.lang, stats.calls_this_month)}</div>
          <div class="hint">{p.t("admin_stats_lag")}</div>
        </div>
      </div>
      <div class="card">
        <h2>{p.t("users")}</h2>
        <form method="get" action="/portal/admin" class="row">
          <div>
            <label for="q">{p.t("search_users")}</label>
            <input id="q" name="q" type="search" value={props.q} maxlength={100} />
          </div>
          <button type="submit">{p.t("search")}</button>
        </form>
        <ListTable
          rows={props.users}
          wrap
          columns={[
            { label: p.t("email"), cell: (u) => <a href={`/portal/admin/users/${u.id}`}>{u.email}</a> },
            { label: p.t("name"), cell: (u) => u.name },
            { label: p.t("plan"), cell: (u) => u.plan },
            { label: p.t("status"), cell: (u) => <span class={`badge ${u.status}`}>{p.t(`status_${u.status}`)}</span> },
            { label: p.t("verified"), cell: (u) => (u.email_verified ? p.t("yes") : p.t("no")) },
          ]}
        />
        <Pager p={p} meta={props.meta} href={(n) => `/portal/admin?page=${n}${props.q ? `&q=${encodeURIComponent(props.q)}` : ""}`} />
      </div>
    </Layout>
  );
}

function AdminUserPage(props: { p: Page; notice: Notice; user: AdminUserView & { keys: KeyView[]; usage: UsageView }; plans: PlanView[]; balance: number }) {
  const { p, user: u } = props;
  const suspended = u.status === "suspended";
  return (
    <Layout p={p} title={u.email}>
      <a class="back" href="/portal/admin">
        ← {p.t("users")}
      </a>
      <h1>{u.email}</h1>
      <NoticeBox n={props.notice} />
      <div class="grid">
        <div class="card">
          <div>
            {p.t("name")}: {u.name}
          </div>
          <div>
            {p.t("plan")}: {u.plan}
          </div>
          <div>
            {p.t("status")}:{" "}
            <span class={`badge ${u.status}`} data-testid="user-status">
              {p.t(`status_${u.status}`)}
            </span>
          </div>
          <div>
            {p.t("verified")}: {u.email_verified ? p.t("yes") : p.t("no")}
          </div>
          <div>
            {p.t("credits_balance")}: {formatNumber(p.lang, props.balance)}
          </div>
          <div>
            {p.t("calls_this_month")}: {formatNumber(p.lang, u.usage.total)}
          </div>
          <form class="mt" method="post" action={`/portal/admin/users/${u.id}/status`} data-confirm={suspended ? undefined : p.t("suspend_confirm")}>
            <Csrf p={p} />
            <input type="hidden" name="status" value={suspended ? "active" : "suspended"} />
            <button type="submit" class={suspended ? "" : "danger"}>
              {suspended ? p.t("reactivate") : p.t("suspend")}
            </button>
          </form>
        </div>
        <div class="card">
          <h2>{p.t("grant_credits")}</h2>
          <form method="post" action={`/portal/admin/users/${u.id}/credits`} class="stack">
            <Csrf p={p} />
            <div>
              <label for="credit-amount">{p.t("amount")}</label>
              <input id="credit-amount" name="amount" type="number" required step={1} />
            </div>
            <div>
              <label for="credit-reason">{p.t("grant_reason")}</label>
              <input id="credit-reason" name="reason" type="text" required minlength={3} maxlength={200} />
            </div>
            <button type="submit">{p.t("grant")}</button>
          </form>
        </div>
        <div class="card">
          <h2>{p.t("grant_subscription")}</h2>
          <form method="post" action={`/portal/admin/users/${u.id}/subscription`} class="stack">
            <Csrf p={p} />
            <div>
              <label for="sub-plan">{p.t("plan")}</label>
              <select id="sub-plan" name="plan_id">
                {props.plans
                  .filter((pl) => pl.price_idr > 0)
                  .map((pl) => (
                    <option value={pl.id}>{pl.name}</option>
                  ))}
              </select>
            </div>
            <div>
              <label for="sub-months">{p.t("months")}</label>
              <input id="sub-months" name="months" type="number" min={1} max={36} value="1" required />
            </div>
            <button type="submit">{p.t("grant")}</button>
          </form>
        </div>
      </div>
      <div class="card">
        <h2>{p.t("keys_of_user")}</h2>
        <ListTable
          rows={u.keys}
          headless
          columns={[
            { label: p.t("key_name"), cell: (k) => k.name },
            { label: p.t("key_prefix"), cell: (k) => <code>{`${k.prefix}…${k.last4}`}</code> },
            { label: p.t("status"), cell: (k) => (k.revoked_at ? p.t("revoked") : p.t("active")) },
          ]}
        />
      </div>
    </Layout>
  );
}
