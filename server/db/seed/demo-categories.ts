/**
 * The demo shop's category tree: a UK builders' merchant and tool hire shop.
 * Three levels at most; slugs are URL segments.
 */
export interface CategorySeed {
  name: string;
  description?: string;
  children?: CategorySeed[];
}

export const demoCategories: CategorySeed[] = [
  {
    name: "Power Tools",
    description: "Cordless and corded tools for site and workshop.",
    children: [
      { name: "Cordless Drills", children: [{ name: "Combi Drills" }, { name: "Drill Drivers" }] },
      { name: "Impact Drivers" },
      { name: "SDS Drills" },
      { name: "Saws", children: [{ name: "Circular Saws" }, { name: "Jigsaws" }, { name: "Mitre Saws" }] },
      { name: "Grinders" },
      { name: "Sanders" },
    ],
  },
  {
    name: "Hand Tools",
    description: "Measuring, cutting and striking tools.",
    children: [{ name: "Hammers" }, { name: "Screwdrivers" }, { name: "Measuring Tools" }, { name: "Spirit Levels" }],
  },
  {
    name: "Building Materials",
    description: "Cement, aggregates, blocks and plasterboard.",
    children: [{ name: "Cement & Aggregates" }, { name: "Bricks & Blocks" }, { name: "Plasterboard" }, { name: "Insulation" }, { name: "Screws & Fixings" }, { name: "Paint" }],
  },
  {
    name: "Timber",
    description: "Sawn, planed and sheet timber.",
    children: [{ name: "Sheet Materials" }, { name: "CLS Studwork" }, { name: "Decking" }, { name: "Sawn Timber" }],
  },
  {
    name: "Plumbing",
    description: "Pipe, fittings and heating.",
    children: [{ name: "Copper Pipe & Fittings" }, { name: "Push-fit" }, { name: "Radiators" }],
  },
  {
    name: "Electrical",
    description: "Cable, accessories and lighting.",
    children: [{ name: "Cable" }, { name: "Sockets & Switches" }, { name: "Lighting" }],
  },
  { name: "Kitchens", description: "Units, worktops and sinks.", children: [{ name: "Worktops" }, { name: "Sinks & Taps" }] },
  { name: "Bathrooms", description: "Suites, showers and tiles.", children: [{ name: "Showers" }, { name: "Tiles" }] },
  { name: "Garden", description: "Landscaping and outdoor.", children: [{ name: "Paving" }, { name: "Fencing" }] },
  {
    name: "Safety & Workwear",
    description: "PPE and workwear for site.",
    children: [{ name: "Safety Boots" }, { name: "Hi-Vis" }, { name: "Gloves" }],
  },
];

export function slugify(name: string): string {
  return name
    .toLowerCase()
    .replace(/&/g, "and")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}
