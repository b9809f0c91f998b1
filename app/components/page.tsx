import type { ReactNode } from "react";
import { Link } from "react-router";

export interface Crumb {
  label: string;
  to?: string;
}

export function Breadcrumbs({ items }: { items: Crumb[] }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-4 text-sm text-stone-600">
      <ol className="flex flex-wrap items-center gap-1">
        {items.map((item, i) => (
          <li key={`${item.label}-${i}`} className="flex items-center gap-1">
            {i > 0 ? <span aria-hidden="true">/</span> : null}
            {item.to ? (
              <Link to={item.to} className="hover:underline">
                {item.label}
              </Link>
            ) : (
              <span aria-current="page">{item.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}

export function PageHeading({ title, intro }: { title: string; intro?: React.ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">{title}</h1>
      {intro ? <p className="mt-2 max-w-3xl text-stone-700">{intro}</p> : null}
    </div>
  );
}

/** A section's heading (`id` names the section), with a link to the whole list beside it, under it on a narrow screen. */
export function SectionHead({ id, title, to, link, titleClassName, linkClassName }: { id: string; title: ReactNode; to: string; link: ReactNode; titleClassName: string; linkClassName: string }) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-2">
      <h2 id={id} className={titleClassName}>
        {title}
      </h2>
      <Link to={to} className={linkClassName}>
        {link}
      </Link>
    </div>
  );
}

/** An honest empty state: says what is not here and offers a way on. */
export function EmptyState({ title, children, action }: { title: string; children?: React.ReactNode; action?: { to: string; label: string } }) {
  return (
    <div role="status" className="rounded-lg border border-dashed border-stone-300 bg-white px-6 py-10 text-center">
      <p className="text-lg font-semibold">{title}</p>
      {children ? <div className="mx-auto mt-2 max-w-prose text-stone-600">{children}</div> : null}
      {action ? (
        <Link to={action.to} className="btn-secondary mt-6">
          {action.label}
        </Link>
      ) : null}
    </div>
  );
}
