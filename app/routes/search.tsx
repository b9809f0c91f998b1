import { EmptyState, PageHeading } from "../components/page.tsx";
import { pageMeta } from "../lib/meta.ts";
import type { Route } from "./+types/search";

export function loader({ request }: Route.LoaderArgs) {
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  return { q };
}

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageMeta(matches, loaderData?.q ? `Search results for “${loaderData.q}”` : "Search");

export default function Search({ loaderData }: Route.ComponentProps) {
  const { q } = loaderData;
  return (
    <>
      <PageHeading title={q ? `Search results for “${q}”` : "Search"} />
      {q ? (
        <EmptyState title={`No products found for “${q}”.`} action={{ to: "/category", label: "Browse categories" }}>
          Check the spelling, or try a product code or a brand.
        </EmptyState>
      ) : (
        <EmptyState title="What are you looking for?">Type a product name, code or brand in the search box above.</EmptyState>
      )}
    </>
  );
}
