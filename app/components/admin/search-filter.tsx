import { Form, Link } from "react-router";

/**
 * A list's filter form: a search box and, when given, one choice, sent by GET
 * so the address holds the filters (a link or a reload shows the same list).
 * `keep` carries filters set elsewhere on the screen (a status tab) through a
 * search, and "Clear" keeps them too.
 */
export function SearchFilter({
  label,
  query,
  placeholder,
  choice,
  keep = {},
}: {
  /** The form's name for screen readers, e.g. "Filter hire items". */
  label: string;
  query: string | undefined;
  placeholder: string;
  choice?: { name: string; label: string; value: string | number | undefined; options: { value: string | number; label: string }[] };
  keep?: Record<string, string | undefined>;
}) {
  const kept = Object.entries(keep).filter((e): e is [string, string] => !!e[1]);
  return (
    <Form method="get" className={`mb-4 grid gap-3 rounded-lg border border-stone-200 bg-white p-4 sm:items-end ${choice ? "sm:grid-cols-[2fr_1fr_auto]" : "sm:grid-cols-[minmax(0,1fr)_auto]"}`} role="search" aria-label={label}>
      {kept.map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <label className="grid min-w-0 gap-1 text-sm font-semibold">
        Search
        <input name="q" type="search" defaultValue={query ?? ""} placeholder={placeholder} className="min-h-10 rounded-md border border-stone-400 px-3 font-normal" />
      </label>
      {choice ? (
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
      ) : null}
      <div className="flex gap-2">
        <button type="submit" className="btn-primary min-h-10">
          Apply filters
        </button>
        <Link to={kept.length ? `?${new URLSearchParams(kept)}` : "?"} className="btn-secondary min-h-10">
          Clear
        </Link>
      </div>
    </Form>
  );
}
