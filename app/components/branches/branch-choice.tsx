import { useEffect, useState } from "react";
import { Link } from "react-router";
import { browserApi } from "../../lib/browser-api.ts";
import { useHydrated } from "../../lib/use-session.ts";
import { MY_BRANCH_EVENT, chooseMyBranch, readMyBranch } from "./my-branch.ts";

/** The chosen branch's slug, following changes made anywhere on the page; null before hydration and when none. */
export function useMyBranch(): string | null {
  const [slug, setSlug] = useState<string | null>(null);
  useEffect(() => {
    const read = () => setSlug(readMyBranch());
    read();
    window.addEventListener(MY_BRANCH_EVENT, read);
    return () => window.removeEventListener(MY_BRANCH_EVENT, read);
  }, []);
  return slug;
}

/** "Make this my branch" on a branch's page and card: pressed when it is theirs. */
export function MakeMyBranch({ slug, name }: { slug: string; name: string }) {
  const hydrated = useHydrated();
  const mine = useMyBranch() === slug;
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function toggle() {
    setSaving(true);
    setError(null);
    try {
      await chooseMyBranch(mine ? null : slug);
    } catch {
      setError("Could not save your branch. Please try again.");
    } finally {
      setSaving(false);
    }
  }
  return (
    <div className="grid gap-1">
      <button type="button" className={mine ? "btn-secondary min-h-11" : "btn-primary min-h-11"} aria-pressed={mine} disabled={!hydrated || saving} onClick={() => void toggle()} data-testid="make-my-branch">
        {mine ? "Your branch" : "Make this my branch"}
        <span className="sr-only">: {name}</span>
      </button>
      {error ? (
        <p role="alert" className="text-sm font-semibold text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface Availability {
  sku: string;
  data: { branch: { slug: string; name: string; distance_miles?: number }; stock: number; collect_label: string | null }[];
}

/**
 * Stock at the customer's branch on the product page, asked after it loads
 * (the page itself is shared and cached): "6 at York, Foss Islands: collect
 * today from 14:00", or where else has it and when it could be ready here by
 * transfer ("order now, ready Thursday from 08:00"). Without a branch, a way to choose one.
 */
export function BranchStock({ productSlug, sku }: { productSlug: string; sku: string | null }) {
  const mine = useMyBranch();
  const hydrated = useHydrated();
  const [state, setState] = useState<{ key: string; answer: Availability | null; failed: boolean } | null>(null);
  const key = `${productSlug}|${sku ?? ""}|${mine ?? ""}`;
  useEffect(() => {
    if (!mine) return;
    let cancelled = false;
    const query = new URLSearchParams({ branch: mine, ...(sku ? { variant: sku } : {}) });
    browserApi()
      .get<Availability>(`/api/products/${encodeURIComponent(productSlug)}/availability?${query}`)
      .then(
        (answer) => !cancelled && setState({ key, answer, failed: false }),
        () => !cancelled && setState({ key, answer: null, failed: true }),
      );
    return () => {
      cancelled = true;
    };
  }, [key, mine, productSlug, sku]);

  if (!hydrated) return <p className="min-h-6 text-sm text-stone-700">&nbsp;</p>;
  if (!mine) {
    return (
      <p className="text-sm text-stone-800" data-testid="branch-stock">
        <Link to="/branches" className="link font-semibold">
          Choose your branch
        </Link>{" "}
        to see its stock for click &amp; collect.
      </p>
    );
  }
  if (!state || state.key !== key) return <p className="min-h-6 text-sm text-stone-700">Checking your branch…</p>;
  if (state.failed || !state.answer) return <p className="text-sm text-stone-700">We could not check your branch's stock just now.</p>;
  const [here, ...others] = state.answer.data;
  if (!here || here.branch.slug !== mine) return null;
  const elsewhere = others.find((o) => o.stock > 0);
  return (
    <div className="text-sm" data-testid="branch-stock">
      {here.stock > 0 ? (
        <p>
          <span className="font-semibold text-green-800">
            {here.stock} at {here.branch.name}
          </span>
          {here.collect_label ? `: collect ${here.collect_label}` : ""}
        </p>
      ) : (
        <p>
          <span className="font-semibold">None at {here.branch.name}</span>
          {elsewhere ? `: ${elsewhere.stock} at ${elsewhere.branch.name}${elsewhere.branch.distance_miles !== undefined ? ` (${elsewhere.branch.distance_miles} miles)` : ""}` : "."}
          {here.collect_label ? (
            <>
              {" "}
              <span className="font-semibold">Order now, ready {here.collect_label}</span> (we bring it to {here.branch.name}).
            </>
          ) : null}
        </p>
      )}
      <Link to="/branches" className="link">
        Change branch
      </Link>
    </div>
  );
}
