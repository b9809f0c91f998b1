import { Form } from "react-router";
import { formatPounds } from "../../lib/money.ts";
import { FieldError } from "./field-error.tsx";
import { ADMIN_CONTROL } from "./form-field.tsx";

/** What POST …/preview answers (server/modules/promotions/admin.ts). */
export interface PromotionPreviewData {
  lines: { sku: string; name: string; quantity: number; line_total_ex_vat: number; discount_ex_vat: number; vat: number }[];
  subtotal: number;
  discount: number;
  vat: number;
  total: number;
  discounts: { code: string | null; description: string; amount: number }[];
  free_delivery: boolean;
  not_applying: { reason: "audience" | "no_lines" | "min_spend"; shortPence?: number } | null;
}

export type PreviewResult = { intent: "preview"; typed: string; trade: boolean } & ({ ok: true; preview: PromotionPreviewData } | { ok: false; errors: string[] });

/** Why it gives this basket nothing, in the desk's words. */
function whyNot(reason: NonNullable<PromotionPreviewData["not_applying"]>, audience: string, multiBuy: boolean): string {
  if (reason.reason === "audience") return `Its customers are ${audience === "trade" ? "trade accounts only" : "consumers only"}, and this basket is ${audience === "trade" ? "a consumer's" : "a trade account's"}.`;
  if (reason.reason === "min_spend") return `The items it applies to come to less than its minimum spend: ${formatPounds((reason.shortPence ?? 0) / 100)} more (ex VAT) is needed.`;
  return multiBuy ? "Not enough of these lines are things it applies to, to make a group." : "None of these lines is something it applies to.";
}

/**
 * Try a basket: SKU and quantity lines, as a consumer or a trade account, at
 * list prices; what it would get (each line's discount, the totals), or why
 * it gets nothing. The answer is read out where it appears.
 */
export function PromotionPreview({ result, audience, multiBuy, gives, busy }: { result: PreviewResult | undefined; audience: string; multiBuy: boolean; gives: string; busy: boolean }) {
  const errors = result && !result.ok ? result.errors : undefined;
  const p = result?.ok ? result.preview : null;
  const mine = p && (p.discount > 0 || p.free_delivery) && !p.not_applying;
  return (
    <section aria-labelledby="preview-heading" className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 text-sm">
      <h2 id="preview-heading" className="text-lg font-bold">
        Try a basket
      </h2>
      <Form method="post" preventScrollReset className="grid gap-3" aria-labelledby="preview-heading">
        <input type="hidden" name="intent" value="preview" />
        <div className="grid gap-1">
          <label htmlFor="preview-lines" className="font-semibold">
            Lines
          </label>
          <span id="preview-lines-hint" className="text-stone-600">
            A SKU and how many, one a line: “DR-1001 3”.
          </span>
          <FieldError id="preview-lines-error" messages={errors} />
          <textarea
            id="preview-lines"
            name="lines"
            rows={4}
            defaultValue={result?.typed ?? ""}
            spellCheck={false}
            aria-invalid={errors ? true : undefined}
            aria-describedby={`preview-lines-hint${errors ? " preview-lines-error" : ""}`}
            className={`${ADMIN_CONTROL} py-2 font-mono`}
          />
        </div>
        <fieldset className="flex flex-wrap gap-x-4 gap-y-1">
          <legend className="mb-1 font-semibold">As</legend>
          {(
            [
              ["consumer", "A consumer"],
              ["trade", "A trade account"],
            ] as const
          ).map(([v, label]) => (
            <label key={v} className="flex min-h-9 items-center gap-2">
              <input type="radio" name="buyer" value={v} defaultChecked={(result?.trade ?? false) === (v === "trade")} className="size-4" />
              {label}
            </label>
          ))}
        </fieldset>
        <div>
          <button type="submit" className="btn-secondary disabled:opacity-75" disabled={busy}>
            {busy ? "Working it out…" : "Show what it gets"}
          </button>
        </div>
      </Form>

      <div aria-live="polite" data-testid="preview-result">
        {p ? (
          <div className="grid gap-3">
            <p className={`rounded-md border-l-4 px-3 py-2 font-semibold ${mine ? "border-green-700 bg-green-50 text-green-900" : "border-amber-600 bg-amber-50 text-amber-900"}`}>
              {mine ? `It gives this basket ${p.discount > 0 ? `${formatPounds(p.discount)} off (ex VAT)` : ""}${p.discount > 0 && p.free_delivery ? " and " : ""}${p.free_delivery ? "free delivery" : ""} (${gives}).` : `It gives this basket nothing. ${p.not_applying ? whyNot(p.not_applying, audience, multiBuy) : ""}`}
            </p>
            {/* A list, not a table: it sits in a narrow column beside the form. */}
            <ul aria-label="The sample basket's lines" className="grid gap-2">
              {p.lines.map((l) => (
                <li key={l.sku} className="rounded-md border border-stone-200 p-2">
                  <span className="block font-semibold [overflow-wrap:anywhere]">{l.name}</span>
                  <span className="block font-mono text-xs text-stone-600">{l.sku}</span>
                  <span className="mt-1 flex flex-wrap gap-x-3">
                    <span>{l.quantity} for {formatPounds(l.line_total_ex_vat)} ex VAT</span>
                    <span className={l.discount_ex_vat ? "font-semibold text-green-900" : "text-stone-600"}>{l.discount_ex_vat ? `−${formatPounds(l.discount_ex_vat)} discount` : "No discount"}</span>
                    <span>VAT {formatPounds(l.vat)}</span>
                  </span>
                </li>
              ))}
            </ul>
            <dl className="grid max-w-sm grid-cols-[minmax(0,1fr)_auto] gap-x-4 gap-y-1">
              <dt>Goods (ex VAT)</dt>
              <dd className="text-right">{formatPounds(p.subtotal)}</dd>
              {p.discounts.map((d) => (
                <div key={`${d.code}-${d.description}`} className="contents">
                  <dt>
                    {d.description}
                    {d.code ? <span className="font-mono"> ({d.code})</span> : " (automatic)"}
                  </dt>
                  <dd className="text-right">−{formatPounds(d.amount)}</dd>
                </div>
              ))}
              <dt>VAT</dt>
              <dd className="text-right">{formatPounds(p.vat)}</dd>
              <dt className="font-semibold">Total, before delivery</dt>
              <dd className="text-right font-semibold">{formatPounds(p.total)}</dd>
              {p.free_delivery ? (
                <>
                  <dt>Delivery</dt>
                  <dd className="text-right">Free</dd>
                </>
              ) : null}
            </dl>
          </div>
        ) : null}
      </div>
    </section>
  );
}
