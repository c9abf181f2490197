/** @jsxImportSource hono/jsx */
/** Portal page: the signed-in developer's API keys (create, shown once, copy, revoke). */
import { Hono } from "hono";
import { z } from "zod";
import { revokeApiKey } from "../account/revocation";
import type { UserRow } from "../db/schema";
import { keyNameInput, type keySchema } from "../keys/schemas";
import { createKey, listKeys } from "../keys/service";
import { ApiError } from "../lib/errors";
import { errorNotice, flash, form, lang, origin, type PortalContext, type PortalEnv, page, type SignedInEnv, signedIn } from "./context";
import { formatDate, translator } from "./i18n";
import { Csrf, Layout, type Notice, NoticeBox, type Page, VerifyFirst } from "./layout";

type KeyView = z.infer<typeof keySchema>;

export const keyPages = new Hono<PortalEnv>();

async function keysPage(
  c: PortalContext<SignedInEnv>,
  u: UserRow,
  notice: Notice,
  created?: { id: string; key: string; name: string },
  status: 200 | 201 | 400 | 403 | 409 = 200,
) {
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
    const { name } = await form(c, z.object({ name: keyNameInput }));
    const created = await createKey(c.env, u, name, origin(c));
    // The secret is in this response's page only: never in a URL, never stored.
    return keysPage(c, u, null, { id: created.id, key: created.key, name: created.name }, 201);
  } catch (e) {
    const n = errorNotice(c, e);
    return keysPage(c, u, n, undefined, e instanceof ApiError && (e.status === 400 || e.status === 403 || e.status === 409) ? e.status : 400);
  }
});

keyPages.post("/keys/:id/revoke", signedIn, async (c) => {
  const u = c.get("user");
  await revokeApiKey(c.env, u.id, c.req.param("id"), origin(c));
  return c.redirect("/portal/keys?msg=key_revoked", 303);
});

// ---------------------------------------------------------------- views

function KeysPage(props: { p: Page; notice: Notice; keys: KeyView[]; created?: { id: string; key: string; name: string }; origin: string }) {
  const { p } = props;
  const verified = p.user?.emailVerified ?? false;
  return (
    <Layout p={p} title={p.t("keys_title")}>
      <h1>{p.t("keys_title")}</h1>
      <NoticeBox n={props.notice} />
      {verified ? null : <VerifyFirst p={p} email={p.user?.email ?? ""} />}
      {props.created ? (
        <div class="card" data-testid="new-key">
          <h2>{p.t("key_created_title")}</h2>
          <div class="notice warn">{p.t("key_created_warning")}</div>
          <div class="secret">
            <code id="new-key-secret">{props.created.key}</code>
            <button type="button" class="secondary" data-copy="new-key-secret" data-copied={p.t("copied")}>
              {p.t("copy")}
            </button>
          </div>
          <p class="hint">{p.t("try_it")}:</p>
          <pre class="try">{`curl -H "x-api-key: ${props.created.key}" \\\n  "${props.origin}/api/v1/wilayah/search?q=bandung"`}</pre>
        </div>
      ) : null}
      <div class="card">
        <p class="muted">{p.t("keys_intro")}</p>
        <form method="post" action="/portal/keys" class="row">
          <Csrf p={p} />
          <div>
            <label for="key-name">{p.t("key_name")}</label>
            <input id="key-name" name="name" type="text" required maxlength={64} placeholder={p.t("key_name_placeholder")} disabled={!verified} />
          </div>
          <button type="submit" disabled={!verified}>
            {p.t("key_create")}
          </button>
        </form>
      </div>
      <div class="card">
        {props.keys.length === 0 ? (
          <p class="muted">{p.t("no_keys")}</p>
        ) : (
          <table class="responsive">
            <thead>
              <tr>
                <th>{p.t("key_name")}</th>
                <th>{p.t("key_prefix")}</th>
                <th>{p.t("created")}</th>
                <th>{p.t("last_used")}</th>
                <th>{p.t("status")}</th>
                <th></th>
              </tr>
            </thead>
            <tbody>
              {props.keys.map((k) => (
                <tr data-key-id={k.id}>
                  <td data-label={p.t("key_name")}>{k.name}</td>
                  <td data-label={p.t("key_prefix")}>
                    <code>{`${k.prefix}…${k.last4}`}</code>
                  </td>
                  <td data-label={p.t("created")}>{formatDate(p.lang, k.created_at)}</td>
                  <td data-label={p.t("last_used")}>{k.last_used_at ? formatDate(p.lang, k.last_used_at) : p.t("never")}</td>
                  <td data-label={p.t("status")}>
                    {k.revoked_at ? <span class="badge revoked">{p.t("revoked")}</span> : <span class="badge active">{p.t("active")}</span>}
                  </td>
                  <td>
                    {k.revoked_at ? null : (
                      <form method="post" action={`/portal/keys/${encodeURIComponent(k.id)}/revoke`} data-confirm={p.t("revoke_confirm")}>
                        <Csrf p={p} />
                        <button type="submit" class="danger small">
                          {p.t("revoke")}
                        </button>
                      </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </Layout>
  );
}
