// The category picker's tree and search: subcategories right under their
// parents, and a search that keeps the parents of every match in view.
import { describe, expect, it } from "vitest";
import { categoriesShown, categoryTree } from "./category-picker.tsx";

const categories = [
  { id: 5, name: "Saws", path: "power-tools/saws" },
  { id: 1, name: "Power Tools", path: "power-tools" },
  { id: 9, name: "Sawn Timber", path: "timber/sawn-timber" },
  { id: 3, name: "Combi Drills", path: "power-tools/cordless-drills/combi-drills" },
  { id: 2, name: "Cordless Drills", path: "power-tools/cordless-drills" },
  { id: 8, name: "Timber", path: "timber" },
  { id: 4, name: "Drill Drivers", path: "power-tools/cordless-drills/drill-drivers" },
];

describe("the category tree", () => {
  it("puts each subcategory under its parent, indented by depth", () => {
    const tree = categoryTree(categories);
    expect(tree.map((n) => `${"  ".repeat(n.depth)}${n.name}`)).toEqual(["Power Tools", "  Cordless Drills", "    Combi Drills", "    Drill Drivers", "  Saws", "Timber", "  Sawn Timber"]);
    expect(tree.find((n) => n.id === 3)!.ancestors).toEqual(["power-tools", "power-tools/cordless-drills"]);
  });

  it("keeps every match and its parents, and nothing else; no search shows all", () => {
    const tree = categoryTree(categories);
    expect(categoriesShown(tree, "  ")).toBeNull();
    const combi = categoriesShown(tree, "COMBI")!;
    expect(combi.matches).toBe(1);
    expect([...combi.paths].sort()).toEqual(["power-tools", "power-tools/cordless-drills", "power-tools/cordless-drills/combi-drills"]);
    const saw = categoriesShown(tree, "saw")!;
    expect(saw.matches).toBe(2);
    expect([...saw.paths].sort()).toEqual(["power-tools", "power-tools/saws", "timber", "timber/sawn-timber"]);
    expect(categoriesShown(tree, "hammer")).toEqual({ paths: new Set(), matches: 0 });
  });
});
