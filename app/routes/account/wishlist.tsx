import { useRef, useState } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { appContext } from "#app-context";
import { AccountPage } from "../../components/account-page.tsx";
import { AddOneToBasket } from "../../components/basket/add-to-basket.tsx";
import { Picture } from "../../components/catalog/picture.tsx";
import { FormAlert } from "../../components/form.tsx";
import { EmptyState } from "../../components/page.tsx";
import { wishlistStore } from "../../components/wishlist/use-wishlist.ts";
import { pageMeta } from "../../lib/meta.ts";
import { formatPounds } from "../../lib/money.ts";
import { useHydrated } from "../../lib/use-session.ts";
import { WISHLIST_MESSAGES } from "../../lib/wishlist.ts";
import type { RootData } from "../../lib/root-data.ts";
import type { Route } from "./+types/wishlist";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your wishlist");

export async function loader({ context }: Route.LoaderArgs) {
  const app = context.get(appContext);
  // The signed-in layout has already sent guests to sign in.
  try {
    return { entries: await app.services.wishlist.list(app.user!.id, app.prices), error: null as string | null };
  } catch {
    return { entries: [], error: WISHLIST_MESSAGES.fetchFailed as string };
  }
}

const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "Europe/London" });

export default function Wishlist({ loaderData }: Route.ComponentProps) {
  const basketEnabled = useRouteLoaderData<RootData>("root")?.config.basketEnabled ?? false;
  const [removed, setRemoved] = useState<ReadonlySet<number>>(new Set());
  const [message, setMessage] = useState<string | undefined>(loaderData.error ?? undefined);
  const heading = useRef<HTMLHeadingElement>(null);
  const hydrated = useHydrated();
  const entries = loaderData.entries.filter((e) => !removed.has(e.product_id));

  async function removeEntry(productId: number) {
    setMessage(undefined);
    // Optimistic: the product goes at once, and comes back if the server refuses.
    setRemoved((r) => new Set(r).add(productId));
    heading.current?.focus();
    const result = await wishlistStore.remove(productId, true);
    if (!result.ok) {
      setRemoved((r) => {
        const next = new Set(r);
        next.delete(productId);
        return next;
      });
      setMessage(result.message);
    }
  }

  return (
    <AccountPage title="Your wishlist" intro="Products you have saved for later." wide>
      <h2 ref={heading} tabIndex={-1} className="sr-only">
        Saved products
      </h2>
      <FormAlert message={message} className="mb-4" />
      {entries.length === 0 ? (
        loaderData.error ? null : (
          <EmptyState title="Your wishlist is empty." action={{ to: "/products", label: "Browse products" }}>
            Tap the heart on a product to save it here.
          </EmptyState>
        )
      ) : (
        <ul className="grid gap-3" aria-label="Saved products">
          {entries.map(({ product, product_id, added_at }) => (
            <li key={product_id} className="flex flex-wrap items-center gap-4 rounded-lg border border-stone-200 bg-white p-3 shadow-sm sm:flex-nowrap sm:p-4">
              {product.image ? (
                <Picture image={product.image} alt="" sizes="96px" width={96} height={96} priority="eager" className="size-20 shrink-0 rounded bg-stone-100 object-contain sm:size-24" />
              ) : (
                <div className="size-20 shrink-0 rounded bg-stone-100 sm:size-24" />
              )}
              <div className="min-w-0 flex-1 basis-40">
                <Link to={`/product/${product.slug}`} className="link font-semibold">
                  {product.name}
                </Link>
                <p className="mt-1">
                  <span className="font-bold">{formatPounds(product.price)}</span> <span className="text-sm text-stone-600">({formatPounds(product.price_ex_vat)} ex VAT)</span>
                </p>
                <p className="text-sm text-stone-600">
                  Added <time dateTime={added_at}>{dateFormat.format(new Date(added_at))}</time>
                </p>
                {product.in_stock ? null : <p className="text-sm font-semibold text-stone-700">Out of stock</p>}
              </div>
              <div className="flex w-full items-start gap-2 sm:w-44 sm:flex-col sm:items-stretch">
                {basketEnabled && product.in_stock ? <AddOneToBasket product={{ id: product_id, name: product.name }} className="flex-1" /> : null}
                <button type="button" disabled={!hydrated} className="btn-secondary flex-1 px-3 text-sm disabled:opacity-75" onClick={() => void removeEntry(product_id)} aria-label={`Remove ${product.name} from your wishlist`}>
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </AccountPage>
  );
}
