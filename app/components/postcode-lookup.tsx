import { useEffect, useId, useState } from "react";
import type { Address } from "../lib/basket-checkout.ts";
import { browserApi } from "../lib/browser-api.ts";
import { ApiError } from "../lib/api-client.ts";
import { Field } from "./form.tsx";

const LOOKUP_FAILED = "No addresses found or an unknown error occurred.";

/**
 * Finds an address by postcode: suggestions while typing (debounced), then the
 * addresses at the postcode to choose from. The chosen address goes to
 * `onPick`; the form's own address fields stay editable by hand. Checkout and
 * the hire request form share it.
 */
export function PostcodeLookup({
  prefix,
  onPick,
  onPostcodeSettled,
}: {
  /** Names the find box (`{prefix}_find`, id `{prefix}-find`). */
  prefix: string;
  onPick: (address: Address) => void;
  /** Called with a postcode the lookup accepted, e.g. to price delivery. */
  onPostcodeSettled?: (postcode: string) => void;
}) {
  const listId = useId();
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

  return (
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
          // On a phone the button wraps below rather than squeezing the box and its label.
          className="min-w-0 flex-1 basis-48"
          inputClassName="uppercase"
        />
        <datalist id={listId}>
          {(query.trim().length >= 2 ? suggestions : []).map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <button type="button" className="btn-secondary disabled:opacity-75" disabled={looking || query.trim().length < 2} onClick={() => void lookup()}>
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
                onPick({ line_1: chosen.line_1 ?? "", line_2: chosen.line_2 ?? "", line_3: chosen.line_3 ?? "", town: chosen.town ?? "", county: chosen.county ?? "", postcode: chosen.postcode });
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
  );
}
