import type { ReactNode } from "react";
import { Link } from "react-router";
import { AdminCrumbs } from "./crumbs.tsx";

/**
 * A screen's header: where it sits (crumbs, when it is under another screen),
 * its one h1, a line on what it is for, and its actions beside the title on
 * wide screens (under it on a phone): `links` to other screens as buttons (the
 * primary one filled), then any other `actions` (a form, a download).
 */
export function PageHeader({
  title,
  intro,
  crumbs,
  back,
  links = [],
  actions,
}: {
  title: ReactNode;
  intro?: ReactNode;
  crumbs?: { label: string; to?: string }[];
  back?: { to: string; label: string };
  links?: readonly { to: string; label: ReactNode; primary?: boolean }[];
  actions?: ReactNode;
}) {
  return (
    <>
      {crumbs ? <AdminCrumbs items={crumbs} /> : null}
      {back ? (
        <p className="mb-2 text-sm">
          <Link to={back.to} className="link">
            ← {back.label}
          </Link>
        </p>
      ) : null}
      <div className="mb-5 flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {intro ? <p className="mt-1 max-w-3xl text-stone-700">{intro}</p> : null}
        </div>
        {links.length || actions ? (
          <div className="flex flex-wrap gap-2">
            {links.map((l) => (
              <Link key={l.to} to={l.to} className={l.primary ? "btn-primary" : "btn-secondary"}>
                {l.label}
              </Link>
            ))}
            {actions}
          </div>
        ) : null}
      </div>
    </>
  );
}
