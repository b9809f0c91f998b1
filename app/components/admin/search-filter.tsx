import { FilterForm, FilterSearch, FilterSelect } from "./filter-form.tsx";

/**
 * The simplest filter form: a search box and, when given, one choice (see
 * FilterForm for the rest of the kit).
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
  return (
    <FilterForm label={label} keep={keep} className={`mb-4 sm:items-end ${choice ? "sm:grid-cols-[2fr_1fr_auto]" : "sm:grid-cols-[minmax(0,1fr)_auto]"}`} buttonsClassName="flex-nowrap">
      <FilterSearch value={query} placeholder={placeholder} />
      {choice ? <FilterSelect name={choice.name} label={choice.label} value={choice.value} options={choice.options.map((o) => [o.value, o.label] as const)} /> : null}
    </FilterForm>
  );
}
