import { useEffect, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { ListingData } from "../../lib/catalog/listing.server.ts";
import {
  type ListingState,
  SORT_LABELS,
  SORTS,
  attributeFilters,
  formSearch,
  hasFilters,
  listingSearch,
  withChanges,
} from "../../lib/catalog/listing-query.ts";
import { formatPounds } from "../../lib/money.ts";
import { useHydrated } from "../../lib/use-session.ts";
import { ChevronDownIcon } from "../icons.tsx";
import { EmptyState } from "../page.tsx";
import { Pagination } from "./pagination.tsx";
import { ProductGrid } from "./product-card.tsx";

const FORM_ID = "listing-filters";
const SORT_ID = "listing-sort";
/** Values shown in a group before "Show more". */
const VISIBLE_VALUES = 8;
/** With this many specification groups or fewer, they all start open. */
const OPEN_GROUPS = 6;
/** Past this many (the whole shop at once), specifications wait until a category is chosen. */
const MAX_GROUPS = 20;

type Facets = ListingData["facets"];

/** The listing with no filters, in the same order. */
function clearedHref(basePath: string, state: ListingState): string {
  return `${basePath}${listingSearch(withChanges(state, { manufacturer: [], attr: [], opt: [], priceMin: undefined, priceMax: undefined, inStock: false }))}`;
}

interface Choices {
  sort: string | null;
  /** `name=value` of each ticked box. */
  ticked: string[];
}

const choicesKey = (c: Choices) => `${c.sort}|${c.ticked.join("&")}`;

/** The sort and the ticked filters the page shows now. */
function choicesOf(form: HTMLElement | null): Choices | null {
  if (!(form instanceof HTMLFormElement)) return null;
  const sort = document.getElementById(SORT_ID);
  const ticked = [...form.querySelectorAll<HTMLInputElement>("input[type=checkbox]")].filter((i) => i.checked).map((i) => `${i.name}=${i.value}`);
  const value = sort instanceof HTMLSelectElement ? sort.value : null;
  return { sort: value, ticked };
}

function restoreChoices(form: HTMLFormElement, choices: Choices): void {
  const ticked = new Set(choices.ticked);
  for (const input of form.querySelectorAll<HTMLInputElement>("input[type=checkbox]")) input.checked = ticked.has(`${input.name}=${input.value}`);
  const sort = document.getElementById(SORT_ID);
  if (sort instanceof HTMLSelectElement && choices.sort !== null) sort.value = choices.sort;
}

/** Sends the filter form's fields as a clean address (no empty fields, back to page 1). */
function useApply(basePath: string) {
  const navigate = useNavigate();
  return (form: HTMLFormElement | null, submitter?: HTMLElement | null) => {
    if (!form) return;
    void navigate(`${basePath}${formSearch(form, submitter)}`, { preventScrollReset: true });
  };
}

export interface ProductListingProps {
  data: ListingData;
  /** The listing's path without a query: /products, /category/power-tools, /manufacturer/3. */
  basePath: string;
  /** Where to go when there is nothing here at all. */
  emptyAction?: { to: string; label: string };
  emptyTitle?: string;
}

/**
 * A product listing: filters from the facets (a disclosure on phones, a
 * sidebar on desktops), sort, result count, the grid and pagination. Every
 * control is a GET form field or a link, so it works before scripts load and
 * the address always holds the whole state.
 */
export function ProductListing({ data, basePath, emptyAction, emptyTitle }: ProductListingProps) {
  const { items, total, page, lastPage, perPage, state, problems, facets } = data;
  const formRef = useRef<HTMLFormElement>(null);
  const apply = useApply(basePath);
  // Choices made while the page was still loading its scripts (a sort, a ticked
  // filter) fired no change that React saw, and hydration puts the controls
  // back to the server's state: read them from the page before that, while
  // hydrating only (after hydration the form on the page may be the previous
  // listing's), and carry them out once mounted. Typed prices are left alone:
  // they wait for their own Apply, as they would with scripts.
  const hydrated = useHydrated();
  const [choicesBeforeHydration] = useState(() => (hydrated || typeof document === "undefined" ? null : choicesOf(document.getElementById(FORM_ID))));
  useEffect(() => {
    const form = formRef.current;
    const now = choicesOf(form);
    if (!choicesBeforeHydration || !form || !now || choicesKey(choicesBeforeHydration) === choicesKey(now)) return;
    restoreChoices(form, choicesBeforeHydration);
    apply(form);
    // Only on mount: later changes go through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const hrefFor = (p: number) => `${basePath}${listingSearch({ ...state, page: p })}`;
  const filtered = hasFilters(state);
  const activeCount = state.manufacturer.length + state.attr.length + state.opt.length + (state.priceMin !== undefined || state.priceMax !== undefined ? 1 : 0) + (state.inStock ? 1 : 0);
  const first = (page - 1) * perPage + 1;
  const last = Math.min(total, page * perPage);

  return (
    <div className="lg:grid lg:grid-cols-[16rem_minmax(0,1fr)] lg:items-start lg:gap-8">
      <aside aria-label="Filters" className="mb-4 lg:mb-0">
        {/* Phones: a native disclosure. Desktops: the same element, always open (::details-content), its summary hidden. */}
        <details
          className="group rounded-lg border border-stone-300 bg-white lg:border-0 lg:bg-transparent supports-[selector(::details-content)]:lg:[&::details-content]:[content-visibility:visible] supports-[selector(::details-content)]:lg:[&>summary]:hidden"
          data-testid="filters"
        >
          <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 px-4 py-2 font-semibold">
            <span>
              Filters
              {activeCount ? <span className="ml-2 rounded-full bg-brand-700 px-2 py-0.5 text-xs text-white">{activeCount} active</span> : null}
            </span>
            <ChevronDownIcon className="size-5 transition-transform group-open:rotate-180" />
          </summary>
          <div className="border-t border-stone-200 px-4 pb-4 pt-2 lg:border-0 lg:p-0">
            <h2 className="sr-only lg:not-sr-only lg:mb-2 lg:text-lg lg:font-bold">Filters</h2>
            <FilterForm formRef={formRef} basePath={basePath} facets={facets} state={state} apply={apply} />
          </div>
        </details>
      </aside>

      <section aria-labelledby="results-heading" className="min-w-0">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <h2 id="results-heading" className="text-base font-semibold text-stone-800" aria-live="polite" data-testid="result-count">
            {total === 0 ? "No products" : items.length ? `${first}–${last} of ${total} ${total === 1 ? "product" : "products"}` : `${total} ${total === 1 ? "product" : "products"}`}
          </h2>
          <div className="flex items-center gap-2">
            <label htmlFor={SORT_ID} className="text-sm font-medium text-stone-800">
              Sort by
            </label>
            <select
              id={SORT_ID}
              name="sort"
              form={FORM_ID}
              defaultValue={state.sort}
              onChange={() => apply(formRef.current)}
              className="min-h-11 rounded-md border border-stone-400 bg-white px-2 text-sm"
            >
              {SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABELS[s]}
                </option>
              ))}
            </select>
            <noscript>
              <button type="submit" form={FORM_ID} className="btn-secondary text-sm">
                Sort
              </button>
            </noscript>
          </div>
        </div>

        {problems.length ? (
          <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950" data-testid="listing-problems">
            Part of this address could not be used and was left out: {problems.join("; ")}.
          </p>
        ) : null}

        <ActiveFilters basePath={basePath} facets={facets} state={state} />

        {items.length ? (
          <ProductGrid products={items} eagerCount={4} />
        ) : total > 0 ? (
          <EmptyState title={`There is no page ${page} here.`} action={{ to: hrefFor(lastPage), label: `Go to page ${lastPage}` }}>
            This listing has {lastPage} {lastPage === 1 ? "page" : "pages"}.
          </EmptyState>
        ) : filtered ? (
          <EmptyState title="No products match these filters." action={{ to: clearedHref(basePath, state), label: "Clear all filters" }}>
            Try fewer filters or a wider price range.
          </EmptyState>
        ) : (
          <EmptyState title={emptyTitle ?? "No products are listed here yet."} action={emptyAction ?? { to: "/category", label: "Browse categories" }} />
        )}

        <Pagination page={page} lastPage={lastPage} hrefFor={hrefFor} label="Result pages" />
      </section>
    </div>
  );
}

function FilterForm({
  formRef,
  basePath,
  facets,
  state,
  apply,
}: {
  formRef: React.RefObject<HTMLFormElement | null>;
  basePath: string;
  facets: Facets;
  state: ListingState;
  apply: (form: HTMLFormElement | null, submitter?: HTMLElement | null) => void;
}) {
  const onTick = (event: React.ChangeEvent<HTMLInputElement>) => apply(event.currentTarget.form);
  const chosen = { manufacturer: state.manufacturer.map(String), attr: state.attr, opt: state.opt, inStock: state.inStock };

  // The boxes are the browser's own (they show a click at once, and work
  // without scripts). When the address changes another way (a chip, a link,
  // back), they are set again from the page's new state.
  const stateKey = listingSearch({ ...state, page: 1 });
  useEffect(() => {
    const form = formRef.current;
    if (!form) return;
    restoreChoices(form, { sort: state.sort, ticked: [...state.manufacturer.map((m) => `manufacturer=${m}`), ...state.attr.map((a) => `attr=${a}`), ...state.opt.map((o) => `opt=${o}`), ...(state.inStock ? ["in_stock=1"] : [])] });
    // stateKey stands for the state's contents.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stateKey, formRef]);
  // A chosen value the facets no longer count still gets its box, so it can be unticked.
  const attributeGroups = facets.attributes.map((g) => ({ ...g, values: [...g.values] }));
  for (const [name, values] of Object.entries(attributeFilters(state.attr))) {
    let group = attributeGroups.find((g) => g.name === name);
    if (!group) attributeGroups.push((group = { name, values: [] }));
    for (const value of values) if (!group.values.some((v) => v.value === value)) group.values.push({ value, count: 0 });
  }
  // Option values (Length, Colour) the same way: a chosen one keeps its box.
  const optionGroups = facets.options.map((g) => ({ ...g, values: [...g.values] }));
  for (const [name, values] of Object.entries(attributeFilters(state.opt))) {
    let group = optionGroups.find((g) => g.name === name);
    if (!group) optionGroups.push((group = { name, values: [] }));
    for (const value of values) if (!group.values.some((v) => v.value === value)) group.values.push({ value, count: 0 });
  }
  const priceKey = `${state.priceMin ?? ""}-${state.priceMax ?? ""}`;
  const tooMany = attributeGroups.length > MAX_GROUPS;
  const groups = tooMany ? attributeGroups.filter((g) => g.values.some((v) => chosen.attr.includes(`${g.name}:${v.value}`))) : attributeGroups;

  return (
    <form
      id={FORM_ID}
      ref={formRef}
      method="get"
      action={basePath}
      className="grid gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        apply(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
      }}
    >
      <fieldset className="grid gap-2">
        <legend className="mb-1 font-semibold">Availability</legend>
        <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm">
          <input type="checkbox" name="in_stock" value="1" defaultChecked={chosen.inStock} onChange={onTick} className="size-5 accent-brand-700" />
          <span>
            In stock only <span className="text-stone-600">({facets.inStock})</span>
          </span>
        </label>
      </fieldset>

      <fieldset className="grid gap-2">
        <legend className="mb-1 font-semibold">Price inc VAT</legend>
        <div className="grid grid-cols-2 gap-2">
          {(
            [
              ["min", "Min (£)", state.priceMin, facets.price.min === null ? "" : String(Math.floor(facets.price.min))],
              ["max", "Max (£)", state.priceMax, facets.price.max === null ? "" : String(Math.ceil(facets.price.max))],
            ] as const
          ).map(([end, label, value, placeholder]) => (
            <div key={end}>
              <label htmlFor={`price-${end}`} className="block text-sm text-stone-700">
                {label}
              </label>
              <input
                key={`${end}-${priceKey}`}
                id={`price-${end}`}
                name={`price_${end}`}
                type="number"
                inputMode="decimal"
                min={0}
                step="0.01"
                defaultValue={value ?? ""}
                placeholder={placeholder}
                className="min-h-11 w-full rounded-md border border-stone-400 bg-white px-2 text-base"
              />
            </div>
          ))}
        </div>
        {facets.price.min !== null && facets.price.max !== null ? (
          <p className="text-xs text-stone-600">
            From {formatPounds(facets.price.min)} to {formatPounds(facets.price.max)} here
          </p>
        ) : null}
      </fieldset>

      {facets.manufacturers.length ? (
        <FacetGroup title="Brand" open>
          {facets.manufacturers.map((m) => (
            <Tick key={m.id} name="manufacturer" value={String(m.id)} label={m.name} count={m.count} checked={chosen.manufacturer.includes(String(m.id))} onChange={onTick} />
          ))}
        </FacetGroup>
      ) : null}

      {optionGroups.map((group) => {
        const picked = group.values.filter((v) => chosen.opt.includes(`${group.name}:${v.value}`));
        return (
          <FacetGroup key={`option-${group.name}`} title={group.name} open chosenCount={picked.length}>
            {group.values.map((v) => (
              <Tick
                key={v.value}
                name="opt"
                value={`${group.name}:${v.value}`}
                label={v.value}
                count={v.count}
                checked={chosen.opt.includes(`${group.name}:${v.value}`)}
                onChange={onTick}
              />
            ))}
          </FacetGroup>
        );
      })}

      {groups.map((group) => {
        const picked = group.values.filter((v) => chosen.attr.includes(`${group.name}:${v.value}`));
        const shown = group.values.slice(0, VISIBLE_VALUES);
        const more = group.values.slice(VISIBLE_VALUES);
        const tick = (v: { value: string; count: number }) => (
          <Tick
            key={v.value}
            name="attr"
            value={`${group.name}:${v.value}`}
            label={v.value}
            count={v.count}
            checked={chosen.attr.includes(`${group.name}:${v.value}`)}
            onChange={onTick}
          />
        );
        return (
          <FacetGroup key={group.name} title={group.name} open={groups.length <= OPEN_GROUPS || picked.length > 0} chosenCount={picked.length}>
            {shown.map(tick)}
            {more.length ? (
              <details open={more.some((v) => picked.includes(v))} className="group/more">
                <summary className="flex min-h-11 cursor-pointer list-none items-center text-sm font-semibold text-brand-700 underline underline-offset-2">
                  <span className="group-open/more:hidden">Show {more.length} more</span>
                  <span className="hidden group-open/more:inline">Show fewer</span>
                </summary>
                <div className="grid">{more.map(tick)}</div>
              </details>
            ) : null}
          </FacetGroup>
        );
      })}

      {tooMany ? (
        <p className="border-t border-stone-200 pt-3 text-sm text-stone-700">
          To filter by specification (voltage, size, finish…), first{" "}
          <Link to="/category" className="link">
            choose a category
          </Link>
          .
        </p>
      ) : null}

      <div className="sticky bottom-0 flex gap-2 bg-white py-2 lg:static lg:bg-transparent">
        <button type="submit" className="btn-primary flex-1">
          Apply filters
        </button>
      </div>
    </form>
  );
}

function FacetGroup({ title, open, chosenCount = 0, children }: { title: string; open: boolean; chosenCount?: number; children: React.ReactNode }) {
  return (
    <details open={open} className="group/facet border-t border-stone-200 pt-1">
      <summary className="flex min-h-11 cursor-pointer list-none items-center justify-between gap-2 font-semibold">
        <span>
          {title}
          {chosenCount ? <span className="ml-2 text-sm font-normal text-brand-700">({chosenCount} chosen)</span> : null}
        </span>
        <ChevronDownIcon className="size-5 shrink-0 transition-transform group-open/facet:rotate-180" />
      </summary>
      <fieldset className="grid">
        <legend className="sr-only">{title}</legend>
        {children}
      </fieldset>
    </details>
  );
}

function Tick(props: { name: string; value: string; label: string; count: number; checked: boolean; onChange: (event: React.ChangeEvent<HTMLInputElement>) => void }) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm">
      <input type="checkbox" name={props.name} value={props.value} defaultChecked={props.checked} onChange={props.onChange} className="size-5 shrink-0 accent-brand-700" />
      <span className="min-w-0 break-words">
        {props.label} <span className="text-stone-600">({props.count})</span>
      </span>
    </label>
  );
}

/** The filters in force, each with a link that takes it off. */
function ActiveFilters({ basePath, facets, state }: { basePath: string; facets: Facets; state: ListingState }) {
  const href = (changes: Partial<ListingState>) => `${basePath}${listingSearch(withChanges(state, changes))}`;
  const chips: { label: string; to: string }[] = [];
  for (const id of state.manufacturer) {
    const name = facets.manufacturers.find((m) => m.id === id)?.name ?? `Brand ${id}`;
    chips.push({ label: name, to: href({ manufacturer: state.manufacturer.filter((m) => m !== id) }) });
  }
  for (const pair of state.attr) {
    const i = pair.indexOf(":");
    chips.push({ label: `${pair.slice(0, i)}: ${pair.slice(i + 1)}`, to: href({ attr: state.attr.filter((a) => a !== pair) }) });
  }
  for (const pair of state.opt) {
    const i = pair.indexOf(":");
    chips.push({ label: `${pair.slice(0, i)}: ${pair.slice(i + 1)}`, to: href({ opt: state.opt.filter((o) => o !== pair) }) });
  }
  if (state.priceMin !== undefined || state.priceMax !== undefined) {
    const label =
      state.priceMin !== undefined && state.priceMax !== undefined
        ? `${formatPounds(state.priceMin)} to ${formatPounds(state.priceMax)}`
        : state.priceMin !== undefined
          ? `From ${formatPounds(state.priceMin)}`
          : `Up to ${formatPounds(state.priceMax!)}`;
    chips.push({ label, to: href({ priceMin: undefined, priceMax: undefined }) });
  }
  if (state.inStock) chips.push({ label: "In stock only", to: href({ inStock: false }) });
  if (!chips.length) return null;
  return (
    <div className="mb-4 flex flex-wrap items-center gap-2" data-testid="active-filters">
      <p className="sr-only">Filters in use:</p>
      <ul className="flex flex-wrap gap-2">
        {chips.map((c) => (
          <li key={c.label}>
            <Link
              to={c.to}
              preventScrollReset
              aria-label={`Remove filter ${c.label}`}
              className="inline-flex min-h-11 items-center gap-2 rounded-full border border-brand-700 bg-brand-50 px-3 text-sm font-medium text-brand-900 hover:bg-brand-100"
            >
              {c.label} <span aria-hidden="true">×</span>
            </Link>
          </li>
        ))}
      </ul>
      <Link to={clearedHref(basePath, state)} preventScrollReset className="link inline-flex min-h-11 items-center px-1 text-sm">
        Clear all filters
      </Link>
    </div>
  );
}
