import { Form, Link } from "react-router";

/**
 * A list's filter form: a search box and one choice, sent by GET so the
 * address holds the filters (a link or a reload shows the same list).
 */
export function SearchFilter({
  label,
  query,
  placeholder,
  choice,
}: {
  /** The form's name for screen readers, e.g. "Filter hire items". */
  label: string;
  query: string | undefined;
  placeholder: string;
  choice: { name: string; label: string; value: string | number | undefined; options: { value: string | number; label: string }[] };
}) {
  return (
    <Form method="get" className="mb-4 grid gap-3 rounded-lg border border-stone-200 bg-white p-4 sm:grid-cols-[2fr_1fr_auto] sm:items-end" role="search" aria-label={label}>
      <label className="grid gap-1 text-sm font-semibold">
        Search
        <input name="q" type="search" defaultValue={query ?? ""} placeholder={placeholder} className="min-h-10 rounded-md border border-stone-400 px-3 font-normal" />
      </label>
      <label className="grid min-w-0 gap-1 text-sm font-semibold">
        {choice.label}
        <select name={choice.name} defaultValue={choice.value ?? ""} className="min-h-10 w-full min-w-0 rounded-md border border-stone-400 bg-white px-2 font-normal">
          <option value="">Any</option>
          {choice.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      <div className="flex gap-2">
        <button type="submit" className="btn-primary min-h-10">
          Apply filters
        </button>
        <Link to="?" className="btn-secondary min-h-10">
          Clear
        </Link>
      </div>
    </Form>
  );
}
