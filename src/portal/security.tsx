/** @jsxImportSource hono/jsx */
/** Portal page: the signed-in user's security (change the password, log out everywhere, recent security events). */
import { Hono } from "hono";
import { z } from "zod";
import type { auditEventSchema } from "../audit/schemas";
import { ownSecurityEvents } from "../audit/service";
import { loginPasswordInput, passwordInput } from "../auth/inputs";
import { changePassword, logoutEverywhere } from "../auth/service";
import { ApiError } from "../lib/errors";
import { Field, ListTable, NewPassword } from "./components";
import { errorNotice, flash, form, origin, type PortalContext, type PortalEnv, page, type SignedInEnv, signedIn } from "./context";
import { formatDate } from "./i18n";
import { Csrf, Layout, type Notice, NoticeBox, type Page } from "./layout";
import { clearSession, setSession } from "./session";

type EventView = z.infer<typeof auditEventSchema>;

export const securityPages = new Hono<PortalEnv>();

const RECENT = 20;

async function securityPage(c: PortalContext<SignedInEnv>, notice: Notice, status: 200 | 400 | 401 | 429 = 200) {
  const { items } = await ownSecurityEvents(c.env, c.get("user").id, { page: 1, per_page: RECENT });
  return c.html(<SecurityPage p={page(c)} notice={notice} events={items as EventView[]} />, status);
}

securityPages.get("/security", signedIn, (c) => securityPage(c, flash(c)));

securityPages.post("/security/password", signedIn, async (c) => {
  try {
    const input = await form(c, z.object({ current_password: loginPasswordInput, new_password: passwordInput }));
    const { token } = await changePassword(c.env, c.get("user"), input, origin(c));
    // The other sessions ended; this browser goes on with the new token.
    setSession(c, token);
    return c.redirect("/portal/security?msg=password_changed", 303);
  } catch (e) {
    const status = e instanceof ApiError && (e.status === 400 || e.status === 401 || e.status === 429) ? e.status : 400;
    return securityPage(c, errorNotice(c, e), status);
  }
});

securityPages.post("/security/logout-all", signedIn, async (c) => {
  await logoutEverywhere(c.env, c.get("user"), origin(c));
  clearSession(c);
  return c.redirect("/portal/login?msg=logged_out_everywhere", 303);
});

// ---------------------------------------------------------------- view

function SecurityPage(props: { p: Page; notice: Notice; events: EventView[] }) {
  const { p } = props;
  return (
    <Layout p={p} title={p.t("security_title")}>
      <h1>{p.t("security_title")}</h1>
      <NoticeBox n={props.notice} />
      <div class="grid">
        <div class="card">
          <h2>{p.t("change_password")}</h2>
          <form method="post" action="/portal/security/password" class="stack">
            <Csrf p={p} />
            <Field
              id="current-password"
              name="current_password"
              label={p.t("current_password")}
              type="password"
              autocomplete="current-password"
              maxlength={128}
            />
            <NewPassword id="new-password" name="new_password" label={p.t("new_password")} hint={p.t("change_password_hint")} />
            <button type="submit">{p.t("change_password")}</button>
          </form>
        </div>
        <div class="card">
          <h2>{p.t("logout_all")}</h2>
          <p class="muted">{p.t("logout_all_hint")}</p>
          <form method="post" action="/portal/security/logout-all" data-confirm={p.t("logout_all_confirm")}>
            <Csrf p={p} />
            <button type="submit" class="danger">
              {p.t("logout_all")}
            </button>
          </form>
        </div>
      </div>
      <div class="card">
        <h2>{p.t("security_events")}</h2>
        <p class="hint">{p.t("security_ip_hint")}</p>
        <ListTable
          rows={props.events}
          empty={p.t("no_events")}
          testid="security-events"
          columns={[
            { label: p.t("when"), cell: (e) => formatDate(p.lang, e.at) },
            {
              label: p.t("event"),
              cell: (e) => (
                <>
                  {p.t(`event_${e.event}`)} <code class="muted">{e.event}</code>
                </>
              ),
            },
            { label: p.t("ip_address"), cell: (e) => e.ip ?? "—" },
          ]}
        />
      </div>
    </Layout>
  );
}
