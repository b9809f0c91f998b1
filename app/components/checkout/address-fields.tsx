import { useEffect, useId, useState } from "react";
import type { Address } from "../../lib/basket-checkout.ts";
import { browserApi } from "../../lib/browser-api.ts";
import { ApiError } from "../../lib/api-client.ts";
import { Field } from "../form.tsx";

const LOOKUP_FAILED = "No addresses found or an unknown error occurred.";

/**
 * An address found by postcode (suggestions while typing, debounced; the chosen
 * address fills the fields) that stays editable by hand.
 */
export function AddressFields({
  prefix,
  value,
  onChange,
  errors,
  onPostcodeSettled,
}: {
  prefix: string;
  value: Address;
  onChange: (address: Address) => void;
  errors: (field: string) => string | undefined;
  /** Called with a postcode the lookup accepted, e.g. to price delivery. */
  onPostcodeSettled?: (postcode: string) => void;
}) {
  const listId = useId();
  const section = prefix === "billing" ? "billing" : "shipping";
  const [query, setQuery] = useState("");
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [found, setFound] = useState<Address[]>([]);
  const [lookupError, setLookupError] = useState<string | undefined>();
  const [looking, setLooking] = useState(false);

  // Suggestions from two characters, debounced.
  useEffect(() => {
    const q = query.trim();
    if (q.length < 2) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      browserApi()
        .post<{ success: boolean; postcodes?: string[] }>("/api/checkout/postcode-suggestions", { query: q }, { signal: controller.signal })
        .then((answer) => setSuggestions(answer.postcodes ?? []))
        .catch(() => setSuggestions([]));
    }, 300);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  async function lookup() {
    setLooking(true);
    setLookupError(undefined);
    setFound([]);
    try {
      const answer = await browserApi().post<{ success: boolean; addresses?: Address[]; message?: string }>("/api/checkout/postcode-lookup", { postcode: query });
      if (answer.success && answer.addresses?.length) {
        setFound(answer.addresses);
        onPostcodeSettled?.(answer.addresses[0]!.postcode);
      } else setLookupError(answer.message ?? LOOKUP_FAILED);
    } catch (error) {
      const fields = error instanceof ApiError ? Object.values(error.errors).flat() : [];
      setLookupError(fields.length ? fields.join(" ") : error instanceof ApiError && error.status < 500 ? error.message || LOOKUP_FAILED : LOOKUP_FAILED);
    } finally {
      setLooking(false);
    }
  }

  const set = (field: keyof Address) => (e: React.ChangeEvent<HTMLInputElement>) => onChange({ ...value, [field]: e.target.value });

  return (
    <div className="grid gap-4">
      <div className="grid gap-2 rounded-md bg-stone-100 p-4">
        <div className="flex flex-wrap items-end gap-3">
          <Field
            label="Find your address by postcode"
            name={`${prefix}_find`}
            id={`${prefix}-find`}
            autoComplete="off"
            autoCapitalize="characters"
            list={listId}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                void lookup();
              }
            }}
            className="min-w-0 flex-1 basis-52"
            inputClassName="uppercase"
          />
          <datalist id={listId}>
            {(query.trim().length >= 2 ? suggestions : []).map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <button type="button" className="btn-secondary disabled:opacity-60" disabled={looking || query.trim().length < 2} onClick={() => void lookup()}>
            {looking ? "Finding…" : "Find address"}
          </button>
        </div>
        {lookupError ? (
          <p role="alert" className="text-sm font-semibold text-red-700">
            {lookupError}
          </p>
        ) : null}
        {found.length ? (
          <label className="grid gap-1.5">
            <span className="font-semibold">Choose your address</span>
            <select
              className="min-h-11 rounded-md border border-stone-400 bg-white px-3"
              defaultValue=""
              onChange={(e) => {
                const chosen = found[Number(e.target.value)];
                if (chosen) {
                  onChange({ line_1: chosen.line_1 ?? "", line_2: chosen.line_2 ?? "", line_3: chosen.line_3 ?? "", town: chosen.town ?? "", county: chosen.county ?? "", postcode: chosen.postcode });
                  onPostcodeSettled?.(chosen.postcode);
                }
              }}
            >
              <option value="" disabled>
                {found.length} {found.length === 1 ? "address" : "addresses"} found
              </option>
              {found.map((a, i) => (
                <option key={i} value={i}>
                  {[a.line_1, a.line_2, a.town].filter(Boolean).join(", ")}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
      <Field label="Address line 1" name={`${prefix}_line_1`} autoComplete={`${section} address-line1`} required value={value.line_1} onChange={set("line_1")} error={errors("line_1")} />
      <Field label="Address line 2" name={`${prefix}_line_2`} autoComplete={`${section} address-line2`} optional value={value.line_2} onChange={set("line_2")} error={errors("line_2")} />
      <Field label="Address line 3" name={`${prefix}_line_3`} autoComplete={`${section} address-line3`} optional value={value.line_3} onChange={set("line_3")} error={errors("line_3")} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Town or city" name={`${prefix}_town`} autoComplete={`${section} address-level2`} required value={value.town} onChange={set("town")} error={errors("town")} />
        <Field label="County" name={`${prefix}_county`} autoComplete={`${section} address-level1`} optional value={value.county} onChange={set("county")} error={errors("county")} />
        <Field
          label="Postcode"
          name={`${prefix}_postcode`}
          autoComplete={`${section} postal-code`}
          autoCapitalize="characters"
          required
          value={value.postcode}
          onChange={set("postcode")}
          onBlur={(e) => onPostcodeSettled?.(e.target.value)}
          error={errors("postcode")}
          inputClassName="uppercase"
        />
      </div>
    </div>
  );
}
