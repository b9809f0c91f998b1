import { Link, useRouteLoaderData } from "react-router";
import { PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { RootData } from "../../root.tsx";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Contact us");

export default function Contact() {
  const email = useRouteLoaderData<RootData>("root")?.config.shopEmail;
  return (
    <article className="max-w-prose">
      <PageHeading title="Contact us" intro="Questions about products, hire or a trade account: we are glad to help." />
      <dl className="grid gap-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200">
        <div>
          <dt className="font-semibold">Email</dt>
          <dd>{email ? <a className="link" href={`mailto:${email}`}>{email}</a> : "Not published"}</dd>
        </div>
        <div>
          <dt className="font-semibold">Trade accounts</dt>
          <dd>
            <Link className="link" to="/trade/setup">Apply for a trade account</Link>
          </dd>
        </div>
      </dl>
    </article>
  );
}
