import { Form, Link, data, useNavigation } from "react-router";
import { PageHeader } from "../../../components/admin/page-header.tsx";
import { FieldError } from "../../../components/admin/field-error.tsx";
import { ADMIN_CONTROL } from "../../../components/admin/form-field.tsx";
import { ActionResultBanner } from "../../../components/admin/result-banner.tsx";
import { DataTable } from "../../../components/admin/table-or-cards.tsx";
import { notFoundOr, serviceError } from "../../../lib/admin/access.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { formatPounds } from "../../../lib/money.ts";
import { PRICE_PERCENT_LIMIT } from "../../../../server/modules/catalog/products/product-status.ts";
import { OPTIONS_MAX, parseOptionValues } from "../../../../server/modules/catalog/variants/variant-limits.ts";
import { optionsInput, variantPatch } from "../../../../server/modules/catalog/variants/variant-rules.ts";
import { parseProduct } from "../../../../server/modules/catalog/products/product-rules.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/variants";
import { Panel } from "../../../components/admin/panel.tsx";
import { staffScreen, staffPost } from "../../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches, loaderData }) => pageMeta(matches, loaderData ? `Options and variants of ${loaderData.product.name}` : "Options and variants");

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "catalogue.view");
  const view = await app.services.adminVariants.list(actor, params.sku).catch(notFoundOr);
  return { ...view, access: { catalogue: can(actor.role, "catalogue.manage"), stock: can(actor.role, "stock.count") } };
}

type Result = { ok: boolean; message: string; errors?: Record<string, string[]>; sku?: string; intent?: string };

const text = (form: FormData, name: string) => String(form.get(name) ?? "");

/** Every form of the screen, without scripts; each service call checks its own permission again. */
export async function action({ context, request, params }: Route.ActionArgs) {
  const { app, actor, form } = await staffPost(context, request, "catalogue.view");
  const intent = text(form, "intent");
  try {
    if (intent === "options") {
      const options = Array.from({ length: OPTIONS_MAX }, (_, i) => ({ name: text(form, `option_name_${i}`).trim(), values: parseOptionValues(text(form, `option_values_${i}`)) })).filter(
        (o) => o.name !== "" || o.values.length > 0,
      );
      const saved = await app.services.adminVariants.setOptions(actor, params.sku, parseProduct(optionsInput, options));
      const active = saved.variants.filter((v) => v.status === "active").length;
      const made = saved.created.length ? ` Made ${saved.created.length}: ${saved.created.join(", ")}.` : "";
      const archived = saved.archived.length ? ` Archived ${saved.archived.length}: ${saved.archived.join(", ")}.` : "";
      return data<Result>({ ok: true, intent, message: `Options saved: ${active} variant${active === 1 ? "" : "s"} on sale.${made}${archived} New variants have no stock until it is counted or received.` });
    }
    if (intent === "variant" || intent === "archive" || intent === "restore") {
      const sku = text(form, "sku");
      const input: Record<string, unknown> =
        intent === "variant"
          ? Object.fromEntries(
              [
                ["sku", text(form, "new_sku").trim()],
                ["price_ex_vat", text(form, "price_ex_vat")],
                ["was_price_ex_vat", text(form, "was_price_ex_vat").trim() === "" ? null : text(form, "was_price_ex_vat")],
                ["reorder_level", text(form, "reorder_level")],
                ["barcode", text(form, "barcode")],
                ["weight_grams", text(form, "weight_grams").trim() === "" ? null : text(form, "weight_grams")],
                // The stock is sent only when it was changed here: a save must not count back a sale made while the screen was open.
                ...(text(form, "stock").trim() !== text(form, "stock_was") ? [["stock", text(form, "stock").trim() || "not a number"]] : []),
              ].filter(([name]) => form.has(name === "sku" ? "new_sku" : String(name))),
            )
          : { status: intent === "archive" ? "archived" : "active" };
      // A role that counts stock but does not manage the catalogue sends only the stock fields.
      if (!can(actor.role, "catalogue.manage")) for (const key of Object.keys(input)) if (key !== "stock" && key !== "reorder_level") delete input[key];
      const saved = await app.services.adminVariants.update(actor, sku, parseProduct(variantPatch, input));
      const what = intent === "archive" ? "archived: no longer on sale" : intent === "restore" ? "back on sale" : "saved";
      return data<Result>({ ok: true, intent, sku: saved.sku, message: `${saved.sku} ${what}.` });
    }
    if (intent === "percent") {
      const percent = Number(text(form, "percent").replace(/%$/, ""));
      const view = await app.services.adminVariants.list(actor, params.sku);
      const done = await app.services.adminProducts.bulk(actor, { skus: [view.product.sku], action: "price_percent", percent }, { preview: false });
      return data<Result>({ ok: true, intent, message: `Every variant's price changed by ${percent > 0 ? "+" : ""}${percent}% (${done.changes[0]?.from ?? ""} → ${done.changes[0]?.to ?? ""} for the cheapest).` });
    }
    throw new Response("Unknown form.", { status: 400 });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    return data<Result>(
      { ok: false, intent, sku: text(form, "sku") || undefined, message: known.errors ? "Nothing was saved. Check the fields marked below." : known.message, errors: known.errors },
      { status: known.status },
    );
  }
}

export default function AdminProductVariants({ loaderData, actionData }: Route.ComponentProps) {
  const { product, options, variants, access } = loaderData;
  const result = actionData as Result | undefined;
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const failed = (intent: string, sku?: string) => (result && !result.ok && result.intent === intent && (sku === undefined || result.sku === sku) ? result.errors : undefined);
  const optionErrors = failed("options");
  const rows = [...options, ...Array.from({ length: OPTIONS_MAX - options.length }, () => ({ name: "", values: [] as string[] }))];
  const active = variants.filter((v) => v.status === "active");
  const archived = variants.filter((v) => v.status === "archived");
  const productHref = `/admin/products/${encodeURIComponent(product.sku)}`;
  type Variant = (typeof active)[number];
  const nameOf = (v: Variant) => Object.entries(v.options).map(([n, x]) => `${n}: ${x}`).join(", ") || "The product (no options)";
  const errorsOf = (v: Variant) => failed("variant", v.sku) ?? failed("archive", v.sku);
  /** A field of a variant's row: its message above its control, which belongs to the row's own form (the Actions cell's). */
  const field = (v: Variant, name: string, control: React.ReactNode) => (
    <div className="grid gap-1">
      <FieldError id={`variant-${v.id}-${name}-error`} messages={errorsOf(v)?.[name]} />
      {control}
    </div>
  );
  const input = (v: Variant, name: string, labelText: string, value: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}, editable = access.catalogue) => {
    const errorName = name === "new_sku" ? "sku" : name;
    return (
      <input
        form={`variant-${v.id}`}
        name={name}
        defaultValue={value}
        aria-label={`${labelText} of ${nameOf(v)}`}
        aria-invalid={errorsOf(v)?.[errorName] ? true : undefined}
        aria-describedby={`variant-${v.id}-${errorName}-error`}
        disabled={!editable}
        className={`${ADMIN_CONTROL} min-w-20`}
        {...props}
      />
    );
  };
  return (
    <>
      <PageHeader
        crumbs={[{ label: "Products", to: "/admin/products" }, { label: product.name, to: productHref }, { label: "Options and variants" }]}
        title={`Options and variants of ${product.name}`}
        intro="Each combination of the options' values is a variant with its own SKU, price, stock and barcode. A product without options has one variant."
      />
      <ActionResultBanner result={result} />

      <section aria-labelledby="options-heading" className="mb-6 rounded-lg border border-stone-200 bg-white p-4">
        <h2 id="options-heading" className="mb-1 text-lg font-bold">
          Options
        </h2>
        <p className="mb-3 text-sm text-stone-700">
          Up to {OPTIONS_MAX} options, such as Length, or Size and Colour. Put each value on its own line, in the order the shop shows them. Saving makes a variant of every new combination; a variant whose value is taken away is archived (refused while it holds stock).
        </p>
        {/* The options' messages, whichever option (or the list as a whole) they name. */}
        <FieldError id="options-error" messages={optionErrors ? Object.values(optionErrors).flat() : undefined} />
        <Form method="post" className="grid gap-4" aria-label="Options">
          <input type="hidden" name="intent" value="options" />
          <fieldset disabled={!access.catalogue} className="grid gap-4 md:grid-cols-3">
            {rows.map((o, i) => (
              <div key={i} className="grid content-start gap-2 rounded-md border border-stone-200 p-3">
                <label className="grid gap-1 text-sm font-semibold">
                  Option {i + 1} name
                  <input name={`option_name_${i}`} defaultValue={o.name} maxLength={40} className={ADMIN_CONTROL} aria-describedby="options-error" />
                </label>
                <label className="grid gap-1 text-sm font-semibold">
                  Its values, one per line
                  <textarea name={`option_values_${i}`} defaultValue={o.values.join("\n")} rows={5} className={`${ADMIN_CONTROL} py-2`} />
                </label>
              </div>
            ))}
          </fieldset>
          {access.catalogue ? (
            <div>
              <button type="submit" className="btn-primary min-h-11" disabled={busy}>
                Save options and make the variants
              </button>
            </div>
          ) : null}
        </Form>
      </section>

      <section aria-labelledby="variants-heading" className="mb-6">
        <h2 id="variants-heading" className="mb-2 text-lg font-bold">
          Variants on sale ({active.length})
        </h2>
        <DataTable
          caption="Each variant's own figures; change a row and save it"
          testId="variants-table"
          rows={active}
          rowKey={(v) => v.id}
          rowProps={() => ({ className: "max-lg:bg-white", "data-testid": "variant-row" })}
          columns={[
            { label: "Variant", head: true, cellClassName: "font-semibold", cell: (v) => <span>{nameOf(v)}</span> },
            { label: "SKU", cell: (v) => field(v, "sku", input(v, "new_sku", "SKU", v.sku, { className: `${ADMIN_CONTROL} min-w-44 font-mono`, spellCheck: false })) },
            {
              label: "Price ex VAT (£)",
              cell: (v) =>
                field(
                  v,
                  "price_ex_vat",
                  <>
                    {input(v, "price_ex_vat", "Price ex VAT", v.price_ex_vat.toFixed(2), { inputMode: "decimal" })}
                    <span className="text-xs text-stone-600">{formatPounds(v.price_inc_vat)} inc VAT</span>
                  </>,
                ),
            },
            { label: "Was price (£)", cell: (v) => field(v, "was_price_ex_vat", input(v, "was_price_ex_vat", "Was price ex VAT", v.was_price_ex_vat === null ? "" : v.was_price_ex_vat.toFixed(2), { inputMode: "decimal" })) },
            {
              label: "Stock",
              cell: (v) =>
                field(
                  v,
                  "stock",
                  <>
                    <input type="hidden" form={`variant-${v.id}`} name="stock_was" value={v.stock} />
                    {input(v, "stock", "Stock", String(v.stock), { inputMode: "numeric" }, access.stock)}
                    {v.low_stock ? <span className="text-xs font-semibold text-amber-800">Low</span> : null}
                  </>,
                ),
            },
            { label: "Reorder level", cell: (v) => field(v, "reorder_level", input(v, "reorder_level", "Reorder level", String(v.reorder_level), { inputMode: "numeric" }, access.stock)) },
            { label: "Barcode (EAN)", cell: (v) => field(v, "barcode", input(v, "barcode", "Barcode", v.barcode ?? "", { inputMode: "numeric" })) },
            { label: "Weight (g)", cell: (v) => field(v, "weight_grams", input(v, "weight_grams", "Weight in grams", v.weight_grams === null ? "" : String(v.weight_grams), { inputMode: "numeric" })) },
            {
              label: "Actions",
              header: <span className="sr-only">Actions</span>,
              cell: (v) => {
                const label = nameOf(v);
                return (
                  <div className="grid">
                    <div className="flex flex-wrap gap-2">
                      <Form method="post" id={`variant-${v.id}`} aria-label={`Save ${label}`}>
                        <input type="hidden" name="intent" value="variant" />
                        <input type="hidden" name="sku" value={v.sku} />
                        {access.catalogue || access.stock ? (
                          <button type="submit" className="btn-primary min-h-10 px-3" disabled={busy}>
                            Save<span className="sr-only"> {label}</span>
                          </button>
                        ) : null}
                      </Form>
                      <Link to={`/admin/variants/${encodeURIComponent(v.sku)}/photos`} className="btn-secondary min-h-10 whitespace-nowrap px-3">
                        Photos ({v.images.length})<span className="sr-only"> of {label}</span>
                      </Link>
                      {access.catalogue && active.length > 1 ? (
                        <Form method="post">
                          <input type="hidden" name="intent" value="archive" />
                          <input type="hidden" name="sku" value={v.sku} />
                          <button type="submit" className="btn-secondary min-h-10 px-3" disabled={busy}>
                            Archive<span className="sr-only"> {label}</span>
                          </button>
                        </Form>
                      ) : null}
                    </div>
                    <FieldError id={`variant-${v.id}-status-error`} messages={errorsOf(v)?.status ?? errorsOf(v)?.options} />
                  </div>
                );
              },
            },
          ]}
        />
      </section>

      {access.catalogue && active.length > 1 ? (
        <section aria-labelledby="percent-heading" className="mb-6 rounded-lg border border-stone-200 bg-white p-4">
          <h2 id="percent-heading" className="mb-1 text-lg font-bold">
            Change every variant's price
          </h2>
          <Form method="post" className="flex flex-wrap items-end gap-3">
            <input type="hidden" name="intent" value="percent" />
            <label className="grid gap-1 text-sm font-semibold">
              By per cent (5 for 5% dearer, -10 for 10% cheaper)
              <input name="percent" inputMode="decimal" required className={ADMIN_CONTROL.replace("w-full", "w-32")} aria-describedby="percent-error" />
            </label>
            <button type="submit" className="btn-secondary min-h-11" disabled={busy}>
              Apply to all {active.length}
            </button>
            <FieldError id="percent-error" messages={failed("percent")?.percent} />
          </Form>
          <p className="mt-2 text-sm text-stone-700">Each price is rounded to the penny; from -{PRICE_PERCENT_LIMIT}% to +1000%.</p>
        </section>
      ) : null}

      {archived.length ? (
        <Panel id="archived-heading" title={<>Archived variants ({archived.length})</>}>
          <ul className="grid gap-2 text-sm">
            {archived.map((v) => (
              <li key={v.id} className="flex flex-wrap items-center gap-3">
                <span className="font-mono">{v.sku}</span>
                <span>{Object.values(v.options).join(", ")}</span>
                {access.catalogue ? (
                  <Form method="post">
                    <input type="hidden" name="intent" value="restore" />
                    <input type="hidden" name="sku" value={v.sku} />
                    <button type="submit" className="btn-secondary min-h-10 px-3" disabled={busy}>
                      Put back on sale<span className="sr-only"> {v.sku}</span>
                    </button>
                  </Form>
                ) : null}
                <FieldError id={`variant-${v.id}-restore-error`} messages={failed("restore", v.sku)?.options ?? failed("restore", v.sku)?.status} />
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}
    </>
  );
}
