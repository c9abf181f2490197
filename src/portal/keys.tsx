/** @jsxImportSource hono/jsx */
/** Portal page: the signed-in developer's API keys (create secret or publishable, shown once, copy, roll, revoke). */
import { Hono } from "hono";
import { z } from "zod";
import { createApiKey } from "../account/keys";
import { revokeApiKey } from "../account/revocation";
import type { UserRow } from "../db/schema";
import { KEY_RATE_TIERS } from "../keys/publishable";
import { createKeyInput, type keySchema, rollKeyInput } from "../keys/schemas";
import { listKeys, rollKey } from "../keys/service";
import { ApiError } from "../lib/errors";
import { ListTable, SecretOnce } from "./components";
import { errorNotice, flash, form, lang, origin, type PortalContext, type PortalEnv, page, type SignedInEnv, signedIn } from "./context";
import { formatDate, translator } from "./i18n";
import { Csrf, Layout, type Notice, NoticeBox, type Page, VerifyFirst } from "./layout";

type KeyView = z.infer<typeof keySchema>;

export const keyPages = new Hono<PortalEnv>();

/** A key's secret, shown once: just created, or just rolled. */
type Shown = { id: string; key: string; name: string; rolled?: boolean };

/**
 * The create form's fields as the API's body: origins one per line, the expiry as a day (the start
 * of that day, UTC), the kind's extra fields only for a publishable key.
 */
function createBody(f: Record<string, unknown>) {
  const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");
  const publishable = f.kind === "publishable";
  const day = text(f.expires_on);
  return {
    name: f.name,
    kind: publishable ? "publishable" : "secret",
    ...(publishable
      ? {
          allowed_origins: text(f.allowed_origins)
            .split(/\r?\n/)
            .map((l) => l.trim())
            .filter(Boolean),
          rate_limit_per_minute: Number(text(f.rate_limit_per_minute) || 30),
        }
      : {}),
    ...(day ? { expires_at: /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day}T00:00:00Z` : day } : {}),
  };
}

const GRACES = [
  [0, "key_grace_0"],
  [3600, "key_grace_1h"],
  [86_400, "key_grace_1d"],
  [604_800, "key_grace_7d"],
] as const;

async function keysPage(c: PortalContext<SignedInEnv>, u: UserRow, notice: Notice, created?: Shown, status: 200 | 201 | 400 | 403 | 404 | 409 = 200) {
  const keys = await listKeys(c.env, u.id);
  return c.html(<KeysPage p={page(c)} notice={notice} keys={keys} created={created} origin={new URL(c.req.url).origin} />, status);
}

keyPages.get("/keys", signedIn, async (c) => {
  const u = c.get("user");
  const t = translator(lang(c));
  const ve = c.req.query("verify_error");
  const notice: Notice =
    c.req.query("verified") === "1"
      ? { kind: "ok", text: t("verified_ok") }
      : ve
        ? { kind: "err", text: t(ve === "expired" ? "verify_expired" : "verify_invalid") }
        : flash(c);
  return keysPage(c, u, notice);
});

keyPages.post("/keys", signedIn, async (c) => {
  const u = c.get("user");
  try {
    const input = await form(
      c,
      z.preprocess((f) => createBody(f as Record<string, unknown>), createKeyInput),
    );
    const created = await createApiKey(c.env, u, input, origin(c));
    // The secret is in this response's page only: never in a URL, never stored.
    return keysPage(c, u, null, { id: created.id, key: created.key, name: created.name }, 201);
  } catch (e) {
    const n = errorNotice(c, e);
    return keysPage(c, u, n, undefined, e instanceof ApiError && (e.status === 400 || e.status === 403 || e.status === 409) ? e.status : 400);
  }
});

keyPages.post("/keys/:id/roll", signedIn, async (c) => {
  const u = c.get("user");
  try {
    const input = await form(
      c,
      z.preprocess((f) => ({ grace_seconds: Number((f as Record<string, unknown>).grace_seconds) }), rollKeyInput),
    );
    const rolled = await rollKey(c.env, u.id, c.req.param("id"), input, origin(c));
    return keysPage(c, u, null, { id: rolled.id, key: rolled.key, name: rolled.name, rolled: true });
  } catch (e) {
    const status = e instanceof ApiError && (e.status === 400 || e.status === 404 || e.status === 409) ? e.status : 400;
    return keysPage(c, u, errorNotice(c, e), undefined, status);
  }
});

keyPages.post("/keys/:id/revoke", signedIn, async (c) => {
  const u = c.get("user");
  await revokeApiKey(c.env, u.id, c.req.param("id"), origin(c));
  return c.redirect("/portal/keys?msg=key_revoked", 303);
});

// ---------------------------------------------------------------- views

function KeysPage(props: { p: Page; notice: Notice; keys: KeyView[]; created?: Shown; origin: string }) {
  const { p } = props;
  const verified = p.user?.emailVerified ?? false;
  return (
    <Layout p={p} title={p.t("keys_title")}>
      <h1>{p.t("keys_title")}</h1>
      <NoticeBox n={props.notice} />
      {verified ? null : <VerifyFirst p={p} email={p.user?.email ?? ""} />}
      {props.created ? (
        <SecretOnce
          p={p}
          testid="new-key"
          title={p.t(props.created.rolled ? "key_rolled_title" : "key_created_title")}
          warning={p.t("key_created_warning")}
          id="new-key-secret"
          secret={props.created.key}
        >
          <p class="hint">{p.t("try_it")}:</p>
          <pre class="try">
            {props.created.key.startsWith("wk_pub_")
              ? `fetch("${props.origin}/api/v1/wilayah/search?q=bandung", {\n  headers: { "x-api-key": "${props.created.key}" },\n}).then((r) => r.json())`
              : `curl -H "x-api-key: ${props.created.key}" \\\n  "${props.origin}/api/v1/wilayah/search?q=bandung"`}
          </pre>
        </SecretOnce>
      ) : null}
      <div class="card">
        <p class="muted">{p.t("keys_intro")}</p>
        <form method="post" action="/portal/keys">
          <Csrf p={p} />
          <label for="key-name">{p.t("key_name")}</label>
          <input id="key-name" name="name" type="text" required maxlength={64} placeholder={p.t("key_name_placeholder")} disabled={!verified} />
          <fieldset>
            <legend>{p.t("key_kind")}</legend>
            <label class="check">
              <input type="radio" name="kind" value="secret" checked disabled={!verified} /> {p.t("key_kind_secret")}
            </label>
            <label class="check">
              <input type="radio" name="kind" value="publishable" id="key-kind-publishable" disabled={!verified} /> {p.t("key_kind_publishable")}
            </label>
            <p class="hint">{p.t("key_kind_help")}</p>
            <label for="key-origins">{p.t("key_origins")}</label>
            <textarea id="key-origins" name="allowed_origins" rows={2} placeholder={p.t("key_origins_placeholder")} disabled={!verified}></textarea>
            <label for="key-rate">{p.t("key_rate")}</label>
            <select id="key-rate" name="rate_limit_per_minute" disabled={!verified}>
              {KEY_RATE_TIERS.map((n) => (
                <option value={String(n)} selected={n === 30}>
                  {n}
                </option>
              ))}
            </select>
          </fieldset>
          <label for="key-expires">{p.t("key_expires")}</label>
          <input id="key-expires" name="expires_on" type="date" disabled={!verified} />
          <button type="submit" class="mt" disabled={!verified}>
            {p.t("key_create")}
          </button>
        </form>
      </div>
      <div class="card">
        <ListTable
          rows={props.keys}
          empty={p.t("no_keys")}
          rowAttrs={(k) => ({ "data-key-id": k.id })}
          columns={[
            { label: p.t("key_name"), cell: (k) => k.name },
            {
              label: p.t("key_kind"),
              cell: (k) => (
                <>
                  {k.kind === "publishable" ? p.t("key_kind_publishable") : p.t("key_kind_secret")}
                  {k.allowed_origins ? <div class="hint origins">{k.allowed_origins.join(", ")}</div> : null}
                  {k.rate_limit_per_minute ? <div class="hint">{`${k.rate_limit_per_minute}/min`}</div> : null}
                </>
              ),
            },
            {
              label: p.t("key_prefix"),
              cell: (k) => (
                <>
                  <code>{`${k.prefix}…${k.last4}`}</code>
                  {k.previous_secret_until ? <div class="hint">{p.t("key_previous_until", { when: formatDate(p.lang, k.previous_secret_until) })}</div> : null}
                </>
              ),
            },
            {
              label: p.t("created"),
              cell: (k) => (
                <>
                  {formatDate(p.lang, k.created_at)}
                  {k.expires_at ? <div class="hint">{`${p.t("key_expires_at")}: ${formatDate(p.lang, k.expires_at)}`}</div> : null}
                </>
              ),
            },
            {
              label: p.t("last_used"),
              class: "last-used",
              cell: (k) => (
                <>
                  {k.last_used_at ? formatDate(p.lang, k.last_used_at) : p.t("never")}
                  {k.last_used_origin ? <div class="hint">{`${p.t("key_from")} ${k.last_used_origin}`}</div> : null}
                </>
              ),
            },
            {
              label: p.t("status"),
              cell: (k) =>
                k.revoked_at ? (
                  <span class="badge revoked">{p.t("revoked")}</span>
                ) : k.expires_at && Date.parse(k.expires_at) <= Date.now() ? (
                  <span class="badge revoked">{p.t("key_expired")}</span>
                ) : (
                  <span class="badge active">{p.t("active")}</span>
                ),
            },
            { label: "", class: "actions", cell: (k) => (k.revoked_at ? null : <KeyActions p={p} id={k.id} />) },
          ]}
        />
      </div>
    </Layout>
  );
}

/** A live key's buttons: roll (a new secret, the old one working for the grace chosen) and revoke. */
function KeyActions(props: { p: Page; id: string }) {
  const { p, id } = props;
  return (
    <>
      <form method="post" action={`/portal/keys/${encodeURIComponent(id)}/roll`} class="roll">
        <Csrf p={p} />
        <label class="hint" for={`grace-${id}`}>
          {p.t("key_roll_grace")}
        </label>
        <select id={`grace-${id}`} name="grace_seconds">
          {GRACES.map(([seconds, label]) => (
            <option value={String(seconds)} selected={seconds === 86_400}>
              {p.t(label)}
            </option>
          ))}
        </select>
        <button type="submit" class="secondary small">
          {p.t("key_roll")}
        </button>
      </form>
      <form method="post" action={`/portal/keys/${encodeURIComponent(id)}/revoke`} data-confirm={p.t("revoke_confirm")}>
        <Csrf p={p} />
        <button type="submit" class="danger small">
          {p.t("revoke")}
        </button>
      </form>
    </>
  );
}
