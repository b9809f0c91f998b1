import type { ReactNode } from "react";
import { Link } from "react-router";

export interface LinkItem {
  to: string;
  label: ReactNode;
}

/** A category as a link to its page. */
export const categoryLink = <C extends { path: string; name: string }>(c: C): C & LinkItem => ({ ...c, to: `/category/${c.path}`, label: c.name });

/**
 * The items of a list of links, each its own `<li>` (the caller's `<ul>` holds
 * them beside any items of its own); `after` adds what stands under a link
 * inside its item, such as a category's own children.
 */
export function LinkItems<T extends LinkItem>({ links, className, after }: { links: readonly T[]; className: string; after?: (link: T) => ReactNode }) {
  return links.map((l) => (
    <li key={l.to}>
      <Link to={l.to} className={className}>
        {l.label}
      </Link>
      {after?.(l)}
    </li>
  ));
}
