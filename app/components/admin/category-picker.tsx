import { useId, useMemo, useState } from "react";
import { useHydrated } from "../../lib/use-session.ts";
import { FieldError } from "./field-error.tsx";
import { ADMIN_CONTROL } from "./form-field.tsx";

export interface CategoryChoice {
  id: number;
  name: string;
  path: string;
}

interface Node extends CategoryChoice {
  depth: number;
  /** Every category above it, nearest last, by path. */
  ancestors: string[];
}

/** Categories in path order with their depth: a subcategory follows its parent, so the list reads as a tree. */
export function categoryTree(categories: readonly CategoryChoice[]): Node[] {
  return [...categories]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((c) => {
      const parts = c.path.split("/");
      return { ...c, depth: parts.length - 1, ancestors: parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/")) };
    });
}

/**
 * The paths a search keeps: each category whose name matches, and every
 * category above one (so a match is never shown without its parents). Null
 * when there is nothing to search for: all are shown.
 */
export function categoriesShown(nodes: readonly Node[], query: string): { paths: Set<string>; matches: number } | null {
  const q = query.trim().toLowerCase();
  if (!q) return null;
  const paths = new Set<string>();
  let matches = 0;
  for (const n of nodes) {
    if (!n.name.toLowerCase().includes(q)) continue;
    matches += 1;
    paths.add(n.path);
    for (const a of n.ancestors) paths.add(a);
  }
  return { paths, matches };
}

/**
 * The product's categories as a tree of checkboxes, subcategories indented
 * under their parents, with a search that filters it once scripts run
 * (without them every category is listed). A hidden row keeps its box, so a
 * category chosen before a search is still sent.
 */
export function CategoryPicker({ categories, chosen, errors, disabled }: { categories: readonly CategoryChoice[]; chosen: readonly number[]; errors?: string[]; disabled?: boolean }) {
  const id = useId();
  const nodes = useMemo(() => categoryTree(categories), [categories]);
  const [picked, setPicked] = useState(() => new Set(chosen));
  const [query, setQuery] = useState("");
  const scripted = useHydrated();
  const shown = categoriesShown(nodes, query);
  const names = new Map(nodes.map((n) => [n.path, n.name]));
  const trail = (n: Node) => [...n.ancestors.map((a) => names.get(a) ?? a), n.name].join(" › ");
  const pickedNodes = nodes.filter((n) => picked.has(n.id));
  return (
    <div className="grid gap-3">
      <p className="text-sm" data-testid="chosen-categories" aria-live="polite">
        {pickedNodes.length ? (
          <>
            <span className="font-semibold">Listed in: </span>
            {pickedNodes.map(trail).join("; ")}
          </>
        ) : (
          "Not in any category yet: it will not be listed on category pages."
        )}
      </p>
      <FieldError messages={errors} />
      {scripted ? (
        <div className="grid gap-1 text-sm">
          <label htmlFor={`${id}-search`} className="font-semibold">
            Find a category
          </label>
          <input
            id={`${id}-search`}
            type="search"
            value={query}
            onChange={(e) => setQuery(e.currentTarget.value)}
            // Enter here filters; it must not send the whole product form.
            onKeyDown={(e) => {
              if (e.key === "Enter") e.preventDefault();
            }}
            aria-describedby={`${id}-count`}
            autoComplete="off"
            disabled={disabled}
            className={`${ADMIN_CONTROL} max-w-md`}
          />
          <span id={`${id}-count`} className="text-stone-700" aria-live="polite">
            {shown ? (shown.matches ? `${shown.matches} matching, shown under their parents.` : "No category matches.") : `${nodes.length} categories.`}
          </span>
        </div>
      ) : null}
      <ul className="grid max-h-80 content-start gap-0.5 overflow-y-auto rounded-md border border-stone-200 p-2 text-sm" aria-label="Categories" data-testid="category-tree">
        {nodes.map((n) => (
          <li key={n.id} hidden={shown ? !shown.paths.has(n.path) : undefined} style={{ paddingLeft: `${n.depth * 1.5}rem` }}>
            <label className={`flex min-h-9 items-center gap-2 ${n.depth === 0 ? "font-semibold" : ""}`}>
              <input
                type="checkbox"
                name="category_ids"
                value={n.id}
                checked={picked.has(n.id)}
                onChange={(e) => {
                  const on = e.currentTarget.checked;
                  setPicked((was) => {
                    const next = new Set(was);
                    if (on) next.add(n.id);
                    else next.delete(n.id);
                    return next;
                  });
                }}
                className="size-4 shrink-0"
              />
              <span>
                {n.depth > 0 ? (
                  <span aria-hidden="true" className="mr-1 text-stone-500">
                    └
                  </span>
                ) : null}
                {n.name}
                {n.depth > 0 ? <span className="sr-only"> (in {n.ancestors.map((a) => names.get(a) ?? a).join(" › ")})</span> : null}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </div>
  );
}
