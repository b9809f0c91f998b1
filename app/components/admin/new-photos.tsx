import { useState } from "react";
import { useHydrated } from "../../lib/use-session.ts";
import { FieldError } from "./field-error.tsx";
import { ADMIN_CONTROL } from "./form-field.tsx";

/** Rows the form starts with; more with "Add another photo" once scripts run. */
const START_ROWS = 2;
const ROWS_MAX = 10;

/**
 * Photos chosen on the new-product form: each a file and its alt text, sent
 * with the product in the same (multipart) submission and converted by the
 * media pipeline on the server. A preview shows what was chosen.
 */
export function NewPhotos({ errors }: { errors?: string[] }) {
  const [rows, setRows] = useState(() => Array.from({ length: START_ROWS }, (_, i) => i));
  const [previews, setPreviews] = useState<Record<number, string>>({});
  const scripted = useHydrated();
  return (
    <fieldset className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4">
      <legend className="px-1 text-lg font-bold">Photos</legend>
      <p className="text-sm text-stone-700" id="new-photos-hint">
        JPEG, PNG, WebP, AVIF or HEIC, up to 20 MB each. The first is the one listings show. Describe each photo (alt text): a published product needs it.
      </p>
      <FieldError id="new-photos-error" messages={errors} />
      <ol className="grid gap-3">
        {rows.map((row, i) => (
          <li key={row} className="grid gap-2 rounded-md border border-stone-200 p-3 sm:grid-cols-[6rem_minmax(0,1fr)_minmax(0,1.5fr)_auto] sm:items-end">
            <div className="grid size-24 place-items-center overflow-hidden rounded bg-stone-100 text-xs text-stone-600">
              {previews[row] ? <img src={previews[row]} alt="" className="size-full object-cover" /> : <span aria-hidden="true">No photo</span>}
            </div>
            <label className="grid gap-1 text-sm font-semibold">
              Photo {i + 1}
              <input
                type="file"
                name="photo"
                accept="image/jpeg,image/png,image/webp,image/avif,image/heic,image/heif"
                aria-describedby={errors?.length ? "new-photos-hint new-photos-error" : "new-photos-hint"}
                onChange={(e) => {
                  const file = e.currentTarget.files?.[0];
                  setPreviews((was) => {
                    if (was[row]) URL.revokeObjectURL(was[row]);
                    const next = { ...was };
                    if (file) next[row] = URL.createObjectURL(file);
                    else delete next[row];
                    return next;
                  });
                }}
                className="min-h-10 text-sm font-normal file:mr-2 file:min-h-9 file:rounded file:border file:border-stone-400 file:bg-white file:px-2"
              />
            </label>
            <label className="grid gap-1 text-sm font-semibold">
              Photo {i + 1}: what it shows (alt text)
              <input name="photo_alt" maxLength={250} placeholder="e.g. The drill from the left, battery fitted" className={ADMIN_CONTROL} />
            </label>
            {scripted && rows.length > 1 ? (
              <button type="button" className="btn-secondary min-h-10" onClick={() => setRows((was) => was.filter((r) => r !== row))}>
                Remove<span className="sr-only"> photo {i + 1}</span>
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      {scripted && rows.length < ROWS_MAX ? (
        <button type="button" className="btn-secondary min-h-10 justify-self-start" onClick={() => setRows((was) => [...was, Math.max(-1, ...was) + 1])}>
          Add another photo
        </button>
      ) : null}
    </fieldset>
  );
}
