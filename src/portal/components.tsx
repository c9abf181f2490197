/** @jsxImportSource hono/jsx */
/**
 * The portal's repeated pieces of markup, so each page says only what is its own: a list as a
 * table, a one-button form, a secret shown once, a labelled input. The page frame, notices and the
 * pager are in layout.tsx.
 */
import type { Child } from "hono/jsx";
import { Csrf, type Page } from "./layout";

/** A column of a `ListTable`: its heading (also each cell's `data-label`, shown on a phone), its cell; `num`: figures, aligned right. */
export type Column<T> = { label: string; cell: (row: T, index: number) => Child; class?: string; num?: boolean };

/**
 * A list as a table that folds into one card per row on a phone (`responsive`: each cell says its
 * column); `empty` when there are no rows (without it the table is drawn, headings only). A column
 * without a label (the row's buttons) has none. `wrap`: a wide table scrolls inside its card.
 * `class`: the table's own classes besides; `headless`: no heading row (the labels show only folded);
 * `flat`: never folds, for a short list of figures that fits a phone as it is.
 */
export function ListTable<T>(props: {
  rows: readonly T[];
  empty?: string;
  columns: Column<T>[];
  testid?: string;
  wrap?: boolean;
  class?: string;
  headless?: boolean;
  flat?: boolean;
  rowAttrs?: (row: T) => Record<string, string>;
}) {
  if (props.rows.length === 0 && props.empty !== undefined) return <p class="muted">{props.empty}</p>;
  const cellClass = (c: Column<T>) => [c.class, c.num ? "num" : undefined].filter(Boolean).join(" ") || undefined;
  const tableClass = [props.flat ? undefined : "responsive", props.class].filter(Boolean).join(" ") || undefined;
  const table = (
    <table class={tableClass} data-testid={props.testid}>
      {props.headless ? null : (
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th class={c.num ? "num" : undefined}>{c.label}</th>
            ))}
          </tr>
        </thead>
      )}
      <tbody>
        {props.rows.map((row, index) => (
          <tr {...(props.rowAttrs?.(row) ?? {})}>
            {props.columns.map((c) => (
              <td data-label={c.label || undefined} class={cellClass(c)}>
                {c.cell(row, index)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  return props.wrap ? <div class="table-wrap">{table}</div> : table;
}

/** A form that is one button (with its CSRF token and any hidden fields); `confirm`: asked first. */
export function PostButton(props: { p: Page; action: string; label: string; cls?: string; confirm?: string; fields?: Record<string, string> }) {
  return (
    <form method="post" action={props.action} class="inline" data-confirm={props.confirm}>
      <Csrf p={props.p} />
      {Object.entries(props.fields ?? {}).map(([k, v]) => (
        <input type="hidden" name={k} value={v} />
      ))}
      <button type="submit" class={props.cls ?? "secondary small"}>
        {props.label}
      </button>
    </form>
  );
}

/** A secret shown once (a new key, a webhook's signing secret): `intro`, its warning, the value and a copy button, then `children`. */
export function SecretOnce(props: { p: Page; testid: string; title: string; warning: string; id: string; secret: string; intro?: Child; children?: Child }) {
  const { p } = props;
  return (
    <div class="card" data-testid={props.testid}>
      <h2>{props.title}</h2>
      {props.intro}
      <div class="notice warn">{props.warning}</div>
      <div class="secret">
        <code id={props.id}>{props.secret}</code>
        <button type="button" class="secondary" data-copy={props.id} data-copied={p.t("copied")}>
          {p.t("copy")}
        </button>
      </div>
      {props.children}
    </div>
  );
}

/** A labelled input of a stacked form (sign-in, sign-up, password forms): `id` is also its name unless `name` says. */
export function Field(props: {
  id: string;
  label: string;
  type: string;
  name?: string;
  autocomplete?: string;
  value?: string;
  minlength?: number;
  maxlength?: number;
  hint?: string;
}) {
  return (
    <div>
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        name={props.name ?? props.id}
        type={props.type}
        autocomplete={props.autocomplete}
        required
        minlength={props.minlength}
        maxlength={props.maxlength}
        value={props.value}
      />
      {props.hint ? <p class="hint">{props.hint}</p> : null}
    </div>
  );
}

/** A new password's field: the rules the API checks (8 to 128 characters), said in `hint`. */
export function NewPassword(props: { id: string; name?: string; label: string; hint: string }) {
  return (
    <Field id={props.id} name={props.name} label={props.label} hint={props.hint} type="password" autocomplete="new-password" minlength={8} maxlength={128} />
  );
}
