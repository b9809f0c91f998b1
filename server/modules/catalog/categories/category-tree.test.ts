import { describe, expect, it } from "vitest";
import { findCategory } from "./category-tree.ts";
import type { CategoryNode } from "../contract.ts";

const node = (path: string, children: CategoryNode[] = []): CategoryNode => {
  const slug = path.split("/").at(-1)!;
  return { id: path.length, name: slug.toUpperCase(), slug, path, description: "", children };
};

const tree = [
  node("power-tools", [node("power-tools/drills", [node("power-tools/drills/combi")]), node("power-tools/saws")]),
  node("power"),
];

describe("findCategory", () => {
  it("finds a top-level category with its children, one level deep", () => {
    const found = findCategory(tree, "power-tools")!;
    expect(found.ancestors).toEqual([]);
    expect(found.category.path).toBe("power-tools");
    expect(found.category.children.map((c) => c.path)).toEqual(["power-tools/drills", "power-tools/saws"]);
    expect(found.category.children[0]!.children).toEqual([]);
  });

  it("finds a deep category with its ancestors from the top, without their subtrees", () => {
    const found = findCategory(tree, "power-tools/drills/combi")!;
    expect(found.ancestors.map((a) => a.path)).toEqual(["power-tools", "power-tools/drills"]);
    expect(found.ancestors.every((a) => a.children.length === 0)).toBe(true);
    expect(found.category.children).toEqual([]);
  });

  it("does not take a prefix of a slug for its parent", () => {
    expect(findCategory(tree, "power")!.category.path).toBe("power");
    expect(findCategory(tree, "power-tool")).toBeNull();
    expect(findCategory(tree, "power-tools/drill")).toBeNull();
    expect(findCategory(tree, "nowhere/drills")).toBeNull();
  });
});
