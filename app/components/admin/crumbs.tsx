import { Link } from "react-router";

/** Where a screen sits: each step a link but the last, which is this screen. */
export function AdminCrumbs({ items }: { items: { label: string; to?: string }[] }) {
  return (
    <nav aria-label="Breadcrumb" className="mb-2 text-sm">
      {items.map((item, i) => (
        <span key={`${i}-${item.label}`}>
          {i > 0 ? " › " : null}
          {item.to ? (
            <Link to={item.to} className="link">
              {item.label}
            </Link>
          ) : (
            item.label
          )}
        </span>
      ))}
    </nav>
  );
}
