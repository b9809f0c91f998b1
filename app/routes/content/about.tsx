import { Link, useRouteLoaderData } from "react-router";
import { PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { RootData } from "../../lib/root-data.ts";
import type { Route } from "./+types/about";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "About us");

export default function About() {
  const appName = useRouteLoaderData<RootData>("root")?.config.appName ?? "Tradecounter";
  return (
    <article className="max-w-prose">
      <PageHeading title="About us" />
      <div className="grid gap-4 text-stone-800">
        <p>
          {appName} is a builders&apos; merchant and tool hire shop. We sell building materials, tools and fittings, hire out equipment
          by the day, weekend or week, and run trade accounts for builders and installers.
        </p>
        <p>
          Every price is shown in pounds with VAT. Trade customers can see prices without VAT and pay on account.
        </p>
        <p>
          <Link className="link" to="/contact">Get in touch</Link> with any question about a product, a hire or your account.
        </p>
      </div>
    </article>
  );
}
