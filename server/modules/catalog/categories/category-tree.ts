import type { CategoryNode } from "../contract.ts";

/** A node on its own: the same category without the levels below it. */
const leaf = (c: CategoryNode): CategoryNode => ({ id: c.id, name: c.name, slug: c.slug, path: c.path, description: c.description, children: [] });

/**
 * A category by its slug path, found in the tree (categoryTree): the category
 * with its children (one level) and its ancestors from the top, for breadcrumbs.
 */
export function findCategory(tree: CategoryNode[], path: string): { category: CategoryNode; ancestors: CategoryNode[] } | null {
  const ancestors: CategoryNode[] = [];
  let level = tree;
  for (;;) {
    const node = level.find((c) => c.path === path || path.startsWith(`${c.path}/`));
    if (!node) return null;
    if (node.path === path) return { category: { ...leaf(node), children: node.children.map(leaf) }, ancestors };
    ancestors.push(leaf(node));
    level = node.children;
  }
}
