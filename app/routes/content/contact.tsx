import { Link, useRouteLoaderData } from "react-router";
import { EnquiryForm, sendEnquiry } from "../../components/enquiry/enquiry-form.tsx";
import { PageHeading } from "../../components/page.tsx";
import { pageMeta } from "../../lib/meta.ts";
import type { RootData } from "../../lib/root-data.ts";
import type { Route } from "./+types/contact";

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, "Contact us", "Send us a question about products, tool hire or a trade account; we reply within one working day.");

export const clientAction = ({ request }: Route.ClientActionArgs) => sendEnquiry(request, "contact");

export default function Contact() {
  const email = useRouteLoaderData<RootData>("root")?.config.shopEmail;
  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <section aria-labelledby="contact-form-heading">
        <PageHeading title="Contact us" intro="Questions about products, hire or a trade account: we are glad to help." />
        <div className="rounded-lg border border-stone-200 bg-white p-5 shadow-sm sm:p-8">
          <h2 id="contact-form-heading" className="mb-4 text-lg font-bold">
            Send us a message
          </h2>
          <EnquiryForm type="contact" action="/contact" submitLabel="Send message" />
        </div>
      </section>
      <aside aria-label="Other ways to reach us" className="lg:pt-20">
        <dl className="grid gap-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200">
          <div>
            <dt className="font-semibold">Email</dt>
            <dd>
              {email ? (
                <a className="link break-all" href={`mailto:${email}`}>
                  {email}
                </a>
              ) : (
                "Not published"
              )}
            </dd>
          </div>
          <div>
            <dt className="font-semibold">Replies</dt>
            <dd className="text-stone-700">Within one working day.</dd>
          </div>
          <div>
            <dt className="font-semibold">Trade accounts</dt>
            <dd>
              <Link className="link" to="/trade/setup">
                Apply for a trade account
              </Link>
            </dd>
          </div>
          <div>
            <dt className="font-semibold">Planning a kitchen or bathroom?</dt>
            <dd>
              <Link className="link" to="/kitchens-and-bathrooms#design-consultation">
                Book a design consultation
              </Link>
            </dd>
          </div>
        </dl>
      </aside>
    </div>
  );
}
