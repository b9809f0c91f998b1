import { Link } from "react-router";
import { Breadcrumbs, PageHeading } from "../../components/page.tsx";
import { SignOutButton } from "../../components/sign-out-button.tsx";
import { pageMeta } from "../../lib/meta.ts";
import { usePageUser } from "../../lib/use-session.ts";
import type { Route } from "./+types/index";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Your account");

// No loader: the page is a frame every signed-in customer shares (ADR 0061). The
// signed-in layout has already sent guests to sign in; the greeting's name and
// email are the session's (GET /api/user), filled in by the browser.

const sections = [
  // Every customer's: a trade member's dashboard, or the way to apply for an account.
  { to: "/trade/dashboard", title: "Trade account", text: "Your trade dashboard, invoices and users, or apply for a trade account." },
  { to: "/account/orders/history", title: "Orders", text: "Follow an order and see what you have bought." },
  { to: "/account/quotes", title: "Quotes", text: "Prices we have worked out for you: accept one to order, ask for changes or decline it." },
  { to: "/trade/quick-order", title: "Quick order", text: "Paste SKUs and quantities, or upload a CSV, to fill your basket in one step." },
  { to: "/account/hire-requests", title: "Hire requests", text: "Equipment you have asked to hire, and its status." },
  { to: "/account/wishlist", title: "Wishlist", text: "Products you have saved for later." },
  { to: "/account/addresses", title: "Addresses", text: "Delivery and billing addresses, and your defaults." },
  { to: "/account/manage", title: "Your details", text: "Your name, email address and phone number." },
  { to: "/account/password", title: "Password", text: "Change the password you sign in with." },
  { to: "/account/newsletter", title: "Newsletter", text: "Choose which emails you receive from us." },
];

export default function AccountOverview() {
  const user = usePageUser();
  return (
    <div className="mx-auto max-w-4xl">
      <Breadcrumbs items={[{ label: "Home", to: "/" }, { label: "Your account" }]} />
      <PageHeading
        title="Your account"
        intro={
          // Two lines kept on a phone, so the cards below do not move when the name arrives.
          <span className="block min-h-12 sm:min-h-6" data-testid="account-greeting">
            {user ? (
              <>
                Hello, {user.firstname}. You are signed in as {user.email}.
              </>
            ) : (
              "Hello. You are signed in."
            )}
          </span>
        }
      />
      <nav aria-label="Your account">
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {sections.map((s) => (
            <li key={s.to}>
              <Link
                to={s.to}
                className="block h-full rounded-lg border border-stone-200 bg-white p-5 shadow-sm hover:border-brand-700 hover:shadow"
              >
                <span className="block text-lg font-semibold text-brand-700 underline-offset-2 hover:underline">{s.title}</span>
                <span className="mt-1 block text-stone-700">{s.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="mt-8 flex flex-wrap items-center gap-4 border-t border-stone-200 pt-6">
        <p className="text-stone-700">Using a shared computer? Sign out when you have finished.</p>
        <SignOutButton />
      </div>
    </div>
  );
}
