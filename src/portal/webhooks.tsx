/** @jsxImportSource hono/jsx */
/**
 * Portal page: the signed-in developer's webhook endpoints (list, add with the secret shown once,
 * enable/disable, delete, roll the secret, send a test event) and each endpoint's delivery log with
 * redelivery. Same services and rules as /user/webhooks.
 */
import { Hono } from "hono";
import type { z } from "zod";
import type { UserRow } from "../db/schema";
import { ApiError, issuesToDetails } from "../lib/errors";
import { createEndpointInput, type deliverySchema, EVENT_TYPES, type endpointSchema } from "../webhooks/schemas";
import {
  changeEndpoint,
  createEndpoint,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  MAX_ENDPOINTS,
  redeliver,
  removeEndpoint,
  rollSecret,
  sendTestEvent,
} from "../webhooks/service";
import { ListTable, PostButton, SecretOnce } from "./components";
import { errorNotice, flash, type PortalContext, type PortalEnv, page, type SignedInEnv, signedIn } from "./context";
import { formatDate } from "./i18n";
import { Csrf, Layout, type Notice, NoticeBox, type Page, Pager, VerifyFirst } from "./layout";

type EndpointView = z.infer<typeof endpointSchema>;
type DeliveryView = z.infer<typeof deliverySchema>;
type Shown = { id: string; secret: string; url: string };

export const webhookPages = new Hono<PortalEnv>();

async function webhooksPage(c: PortalContext<SignedInEnv>, u: UserRow, notice: Notice, shown?: Shown, status: 200 | 201 | 400 | 403 | 409 = 200) {
  const endpoints = await listEndpoints(c.env, u.id);
  return c.html(<WebhooksPage p={page(c)} notice={notice} endpoints={endpoints} shown={shown} />, status);
}

const statusOf = (e: unknown) => (e instanceof ApiError && (e.status === 400 || e.status === 403 || e.status === 409) ? e.status : 400);

webhookPages.get("/webhooks", signedIn, (c) => webhooksPage(c, c.get("user"), flash(c)));

/** The form as the API's body: events from checkboxes, regions from one text field (commas or spaces). */
async function endpointForm(c: PortalContext<SignedInEnv>) {
  const body = await c.req.parseBody({ all: true });
  const list = (v: unknown) => (Array.isArray(v) ? v : v === undefined ? [] : [v]).map(String);
  const input = {
    url: String(body.url ?? ""),
    events: list(body.events),
    regions: String(body.regions ?? "")
      .split(/[\s,]+/)
      .filter(Boolean),
  };
  const r = createEndpointInput.safeParse(input);
  if (!r.success) {
    const details = issuesToDetails(r.error.issues);
    throw new ApiError("VALIDATION_ERROR", `Invalid form: ${details.map((d) => `${d.path}: ${d.message}`).join("; ")}`, { details });
  }
  return r.data;
}

webhookPages.post("/webhooks", signedIn, async (c) => {
  const u = c.get("user");
  try {
    const created = await createEndpoint(c.env, u, await endpointForm(c));
    // The secret is in this response's page only: never in a URL, never stored in clear.
    return webhooksPage(c, u, null, { id: created.id, secret: created.secret, url: created.url }, 201);
  } catch (e) {
    return webhooksPage(c, u, errorNotice(c, e), undefined, statusOf(e));
  }
});

webhookPages.post("/webhooks/:id/enabled", signedIn, async (c) => {
  const body = await c.req.parseBody();
  await changeEndpoint(c.env, c.get("user").id, c.req.param("id"), { enabled: body.enabled === "true" });
  return c.redirect("/portal/webhooks?msg=saved", 303);
});

webhookPages.post("/webhooks/:id/delete", signedIn, async (c) => {
  await removeEndpoint(c.env, c.get("user").id, c.req.param("id"));
  return c.redirect("/portal/webhooks?msg=webhook_deleted", 303);
});

webhookPages.post("/webhooks/:id/roll-secret", signedIn, async (c) => {
  const u = c.get("user");
  const rolled = await rollSecret(c.env, u.id, c.req.param("id"));
  return webhooksPage(c, u, null, { id: rolled.id, secret: rolled.secret, url: rolled.url });
});

webhookPages.post("/webhooks/:id/test", signedIn, async (c) => {
  const id = c.req.param("id");
  await sendTestEvent(c.env, c.get("user").id, id);
  return c.redirect(`/portal/webhooks/${encodeURIComponent(id)}?msg=webhook_test_sent`, 303);
});

webhookPages.get("/webhooks/:id", signedIn, async (c) => {
  const u = c.get("user");
  const id = c.req.param("id");
  const pageNo = /^\d{1,6}$/.test(c.req.query("page") ?? "") ? Math.max(1, Number(c.req.query("page"))) : 1;
  const [endpoint, log] = await Promise.all([getEndpoint(c.env, u.id, id), listDeliveries(c.env, u.id, id, { page: pageNo, per_page: 20 })]);
  return c.html(<DeliveriesPage p={page(c)} notice={flash(c)} endpoint={endpoint} deliveries={log.items} meta={log.meta} />);
});

webhookPages.post("/webhooks/:id/deliveries/:deliveryId/redeliver", signedIn, async (c) => {
  const id = c.req.param("id");
  await redeliver(c.env, c.get("user").id, id, c.req.param("deliveryId"));
  return c.redirect(`/portal/webhooks/${encodeURIComponent(id)}?msg=webhook_redelivered`, 303);
});

// ---------------------------------------------------------------- views

function WebhooksPage(props: { p: Page; notice: Notice; endpoints: EndpointView[]; shown?: Shown }) {
  const { p } = props;
  const verified = p.user?.emailVerified ?? false;
  const full = props.endpoints.length >= MAX_ENDPOINTS;
  return (
    <Layout p={p} title={p.t("webhooks_title")}>
      <h1>{p.t("webhooks_title")}</h1>
      <NoticeBox n={props.notice} />
      {verified ? null : <VerifyFirst p={p} email={p.user?.email ?? ""} />}
      {props.shown ? (
        <SecretOnce
          p={p}
          testid="webhook-secret"
          title={p.t("webhook_secret_title")}
          warning={p.t("webhook_secret_warning")}
          id="webhook-secret-value"
          secret={props.shown.secret}
          intro={<p class="muted">{props.shown.url}</p>}
        />
      ) : null}
      <div class="card">
        <p class="muted">{p.t("webhooks_intro")}</p>
        <form method="post" action="/portal/webhooks">
          <Csrf p={p} />
          <label for="webhook-url">{p.t("webhook_url")}</label>
          <input
            id="webhook-url"
            name="url"
            type="url"
            required
            maxlength={2000}
            placeholder="https://example.com/hooks/wilayah"
            disabled={!verified || full}
          />
          <fieldset>
            <legend>{p.t("webhook_events")}</legend>
            {EVENT_TYPES.map((ev) => (
              <label class="check">
                <input type="checkbox" name="events" value={ev} checked={ev === "edition.published"} disabled={!verified || full} /> <code>{ev}</code>
              </label>
            ))}
          </fieldset>
          <label for="webhook-regions">{p.t("webhook_regions")}</label>
          <input id="webhook-regions" name="regions" type="text" maxlength={300} placeholder="91, 92.01" disabled={!verified || full} />
          <p class="hint">{p.t("webhook_regions_hint")}</p>
          <button type="submit" disabled={!verified || full}>
            {p.t("webhook_create")}
          </button>
        </form>
      </div>
      <div class="card">
        <ListTable
          rows={props.endpoints}
          empty={p.t("no_webhooks")}
          testid="webhooks"
          rowAttrs={(e) => ({ "data-webhook-id": e.id })}
          columns={[
            { label: p.t("webhook_url"), cell: (e) => <a href={`/portal/webhooks/${encodeURIComponent(e.id)}`}>{e.url}</a> },
            {
              label: p.t("webhook_events"),
              cell: (e) => (
                <>
                  {e.events.join(", ")}
                  {e.regions.length ? ` (${e.regions.join(", ")})` : ""}
                </>
              ),
            },
            {
              label: p.t("status"),
              cell: (e) => (
                <>
                  {e.enabled ? <span class="badge active">{p.t("enabled")}</span> : <span class="badge revoked">{p.t("disabled")}</span>}
                  {e.disabled_reason ? <p class="hint">{e.disabled_reason}</p> : null}
                </>
              ),
            },
            { label: p.t("created"), cell: (e) => formatDate(p.lang, e.created_at) },
            {
              label: "",
              class: "actions",
              cell: (e) => (
                <>
                  <PostButton
                    p={p}
                    action={`/portal/webhooks/${encodeURIComponent(e.id)}/enabled`}
                    label={e.enabled ? p.t("disable") : p.t("enable")}
                    fields={{ enabled: e.enabled ? "false" : "true" }}
                  />
                  <PostButton p={p} action={`/portal/webhooks/${encodeURIComponent(e.id)}/test`} label={p.t("webhook_send_test")} />
                  <PostButton
                    p={p}
                    action={`/portal/webhooks/${encodeURIComponent(e.id)}/roll-secret`}
                    label={p.t("webhook_roll")}
                    confirm={p.t("webhook_roll_confirm")}
                  />
                  <PostButton
                    p={p}
                    action={`/portal/webhooks/${encodeURIComponent(e.id)}/delete`}
                    label={p.t("delete")}
                    cls="danger small"
                    confirm={p.t("webhook_delete_confirm")}
                  />
                </>
              ),
            },
          ]}
        />
      </div>
    </Layout>
  );
}

function DeliveriesPage(props: {
  p: Page;
  notice: Notice;
  endpoint: EndpointView;
  deliveries: DeliveryView[];
  meta: { total: number; page: number; per_page: number; total_pages: number };
}) {
  const { p, endpoint } = props;
  const base = `/portal/webhooks/${encodeURIComponent(endpoint.id)}`;
  return (
    <Layout p={p} title={p.t("webhook_deliveries_title")}>
      <p>
        <a href="/portal/webhooks">← {p.t("webhooks_title")}</a>
      </p>
      <h1>{p.t("webhook_deliveries_title")}</h1>
      <p class="muted">
        <code>{endpoint.url}</code>{" "}
        {endpoint.enabled ? <span class="badge active">{p.t("enabled")}</span> : <span class="badge revoked">{p.t("disabled")}</span>}
      </p>
      <NoticeBox n={props.notice} />
      <div class="card">
        <PostButton p={p} action={`${base}/test`} label={p.t("webhook_send_test")} />
      </div>
      <div class="card">
        <ListTable
          rows={props.deliveries}
          empty={p.t("no_deliveries")}
          testid="deliveries"
          rowAttrs={(d) => ({ "data-delivery-id": d.id, "data-status": d.status })}
          columns={[
            {
              label: p.t("webhook_event"),
              cell: (d) => (
                <>
                  <code>{d.event_type}</code>
                  <p class="hint">
                    <code>{d.id}</code>
                  </p>
                </>
              ),
            },
            {
              label: p.t("status"),
              cell: (d) => (
                <span class={`badge ${d.status === "delivered" ? "active" : d.status === "dead" ? "revoked" : ""}`}>{p.t(`delivery_${d.status}`)}</span>
              ),
            },
            {
              label: p.t("webhook_attempts"),
              cell: (d) => (
                <ol class="attempts">
                  {d.attempt_log.map((a) => (
                    <li>
                      {formatDate(p.lang, a.at)}: {a.status_code ?? a.error ?? a.outcome}
                      {a.latency_ms !== null ? ` (${a.latency_ms} ms)` : ""}
                    </li>
                  ))}
                </ol>
              ),
            },
            { label: p.t("created"), cell: (d) => formatDate(p.lang, d.created_at) },
            {
              label: "",
              cell: (d) => <PostButton p={p} action={`${base}/deliveries/${encodeURIComponent(d.id)}/redeliver`} label={p.t("webhook_redeliver")} />,
            },
          ]}
        />
        <Pager p={p} meta={props.meta} href={(n) => `${base}?page=${n}`} />
      </div>
    </Layout>
  );
}
