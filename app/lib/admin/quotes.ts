// The quotes desk's words shared by its screens and its forms' server side
// (no React, no database): where a quote is, its PDFs, and what a form post
// answers. Plain code, kept out of the back office's shared chunk (vite.config.ts).

export const quoteHref = (number: string) => `/admin/quotes/${number}`;

/** The quote as it stands (a draft until sent), or a sent revision as the customer got it. */
export const quotePdfHref = (number: string, revision?: number) => `/api/admin/quotes/${number}/pdf${revision === undefined ? "" : `?revision=${revision}`}`;

/** What a form on the quotes desk did: the banner's words; for a refusal, each error on the form's own field and what was typed. */
export type QuoteFormAnswer = { intent: string; ok: true; message: string } | { intent: string; ok: false; status: number; message: string; errors: Record<string, string[]>; values: Record<string, string> };

/** A line's field on the quote's form: `line_12_price`. */
export const lineField = (lineId: number | string, name: "quantity" | "price" | "discount" | "remove" | "was_quantity" | "was_price" | "line") => `line_${lineId}_${name}`;
