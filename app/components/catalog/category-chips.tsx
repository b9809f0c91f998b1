import { Link } from "react-router";

/** Categories as a row of chips, each a link to its page, in a navigation region named by `label`. */
export function CategoryChips({ label, categories }: { label: string; categories: readonly { path: string; name: string }[] }) {
  return (
    <nav aria-label={label} className="mb-6">
      <ul className="flex flex-wrap gap-2">
        {categories.map((c) => (
          <li key={c.path}>
            <Link
              to={`/category/${c.path}`}
              className="inline-flex min-h-11 items-center rounded-full border border-stone-300 bg-white px-4 text-sm font-medium hover:border-brand-700 hover:text-brand-800"
            >
              {c.name}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
