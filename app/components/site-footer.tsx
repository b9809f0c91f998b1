import { Link } from "react-router";
import type { RootData } from "../lib/root-data.ts";

export function SiteFooter({ data }: { data: RootData | undefined }) {
  const appName = data?.config.appName ?? "Tradecounter";
  const email = data?.config.shopEmail;
  return (
    <footer className="render-when-near mt-12 bg-stone-900 text-stone-200 [contain-intrinsic-size:auto_36rem]">
      <div className="container-page grid grid-cols-2 gap-8 py-10 lg:grid-cols-4">
        <div className="col-span-2 lg:col-span-1">
          <p className="text-lg font-bold text-white">{appName}</p>
          <p className="mt-2 text-sm text-stone-400">Building supplies, tool hire and trade accounts. Prices in pounds, with VAT shown.</p>
        </div>
        <nav aria-label="Shop information">
          <h2 className="font-semibold text-white">Information</h2>
          <ul className="mt-3 grid gap-2 text-sm">
            <li><Link className="hover:underline" to="/about">About us</Link></li>
            <li><Link className="hover:underline" to="/contact">Contact us</Link></li>
            <li><Link className="hover:underline" to="/branches">Our branches</Link></li>
            <li><Link className="hover:underline" to="/delivery">Delivery</Link></li>
            <li><Link className="hover:underline" to="/showcase">Showcase</Link></li>
          </ul>
        </nav>
        <nav aria-label="Services">
          <h2 className="font-semibold text-white">Services</h2>
          <ul className="mt-3 grid gap-2 text-sm">
            <li><Link className="hover:underline" to="/hire">Equipment hire</Link></li>
            <li><Link className="hover:underline" to="/trade/setup">Open a trade account</Link></li>
            <li><Link className="hover:underline" to="/kitchens-and-bathrooms">Kitchens &amp; Bathrooms</Link></li>
            <li><Link className="hover:underline" to="/manufacturer">Brands</Link></li>
          </ul>
        </nav>
        <div className="col-span-2 lg:col-span-1">
          <h2 className="font-semibold text-white">Contact</h2>
          <address className="mt-3 text-sm not-italic text-stone-300">
            {email ? (
              <a className="hover:underline" href={`mailto:${email}`}>
                {email}
              </a>
            ) : null}
            <p className="mt-2">
              <Link className="hover:underline" to="/contact">All the ways to reach us</Link>
            </p>
          </address>
        </div>
      </div>
      <div className="border-t border-white/10 py-4 text-center text-xs text-stone-400">
        © {new Date().getFullYear()} {appName}. All prices in GBP (£).
      </div>
    </footer>
  );
}
