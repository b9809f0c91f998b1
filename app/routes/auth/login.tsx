import { Link } from "react-router";
import { PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { Route } from "./+types/login";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Sign in");

export default function Login() {
  return (
    <div className="mx-auto max-w-md">
      <PageHeading title="Sign in" />
      <div role="status" className="rounded-lg border border-dashed border-stone-300 bg-white px-6 py-8 text-center">
        <p className="font-semibold">Signing in is not available yet.</p>
        <p className="mt-2 text-stone-600">
          You can still browse and <Link className="link" to="/contact">contact us</Link> for help with an order.
        </p>
      </div>
    </div>
  );
}
