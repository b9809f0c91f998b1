import { LinkItems, categoryLink } from "../link-items.tsx";

/** Categories as a row of chips, each a link to its page, in a navigation region named by `label`. */
export function CategoryChips({ label, categories }: { label: string; categories: readonly { path: string; name: string }[] }) {
  return (
    <nav aria-label={label} className="mb-6">
      <ul className="flex flex-wrap gap-2">
        <LinkItems
          links={categories.map(categoryLink)}
          className="inline-flex min-h-11 items-center rounded-full border border-stone-300 bg-white px-4 text-sm font-medium hover:border-brand-700 hover:text-brand-800"
        />
      </ul>
    </nav>
  );
}
