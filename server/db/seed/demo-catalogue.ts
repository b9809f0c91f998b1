/**
 * The demo shop's catalogue: brands, and for every leaf category the kinds of
 * product it sells with the attributes that make comparing them meaningful.
 * Generated deterministically (a seeded random source), so every fresh shop is the same.
 */

export interface BrandSeed {
  name: string;
  description: string;
}

export const demoBrands: BrandSeed[] = [
  { name: "Makita", description: "Japanese maker of cordless power tools for the trade." },
  { name: "DeWalt", description: "Heavy-duty power tools and accessories for site work." },
  { name: "Bosch", description: "Professional blue power tools and measuring tools." },
  { name: "Milwaukee", description: "Cordless systems built for the professional trades." },
  { name: "Ryobi", description: "One battery platform for home and garden tools." },
  { name: "Stanley", description: "Hand tools, measuring and storage since 1843." },
  { name: "Irwin", description: "Clamps, saws and hand tools for the trade." },
  { name: "Stabila", description: "Spirit levels and measuring tools made in Germany." },
  { name: "Tarmac", description: "Cement, aggregates and building products." },
  { name: "Marshalls", description: "Paving and landscaping products from Yorkshire." },
  { name: "Gyproc", description: "Plasterboard and drylining systems." },
  { name: "Kingspan", description: "Insulation boards for walls, floors and roofs." },
  { name: "Celotex", description: "PIR insulation for new build and refurbishment." },
  { name: "JSP", description: "Head, eye and hearing protection." },
  { name: "Scruffs", description: "Workwear and safety footwear." },
  { name: "Hager", description: "Consumer units and wiring accessories." },
  { name: "Crabtree", description: "Switches, sockets and electrical accessories." },
  { name: "Pegler", description: "Brass valves and fittings for plumbing and heating." },
  { name: "JG Speedfit", description: "Push-fit plumbing systems." },
  { name: "Stelrad", description: "Steel panel radiators." },
  { name: "Mira", description: "Electric and mixer showers." },
  { name: "Bristan", description: "Taps, showers and bathroom accessories." },
  { name: "Forest Garden", description: "Fencing, sheds and garden timber." },
  { name: "Metsä Wood", description: "Sheet materials and structural timber." },
  { name: "Philips", description: "LED lighting for home and site." },
];

type AttributeSpec = Record<string, string[]>;

export interface ProductKind {
  /** Leaf category path. */
  category: string;
  /** Name patterns; `{brand}` and each attribute name in braces are filled in. */
  names: string[];
  brands: string[];
  attributes: AttributeSpec;
  /** Price range ex VAT, in pence. */
  price: [number, number];
  vatRate?: 0 | 5 | 20;
  summary: string;
}

const warranty = ["1 year", "2 years", "3 years"];
const powerTool = (voltages: string[]) => ({ Voltage: voltages, Warranty: warranty, "Batteries included": ["None (body only)", "1 × 2.0Ah", "2 × 5.0Ah"] });

export const productKinds: ProductKind[] = [
  {
    category: "power-tools/cordless-drills/combi-drills",
    names: ["{brand} {Voltage} Brushless Combi Drill", "{brand} {Voltage} Compact Combi Drill"],
    brands: ["Makita", "DeWalt", "Bosch", "Milwaukee", "Ryobi"],
    attributes: { ...powerTool(["12V", "18V"]), "Chuck size": ["10mm", "13mm"], "Max torque": ["40Nm", "60Nm", "90Nm", "135Nm"], Weight: ["1.3kg", "1.6kg", "2.0kg"] },
    price: [5_999, 24_999],
    summary: "Drill, drive and hammer-drill into masonry with one cordless tool.",
  },
  {
    category: "power-tools/cordless-drills/drill-drivers",
    names: ["{brand} {Voltage} Drill Driver", "{brand} {Voltage} Sub-Compact Drill Driver"],
    brands: ["Makita", "DeWalt", "Bosch", "Milwaukee", "Ryobi"],
    attributes: { ...powerTool(["10.8V", "12V", "18V"]), "Chuck size": ["10mm", "13mm"], "Max torque": ["30Nm", "45Nm", "65Nm"], Weight: ["1.0kg", "1.2kg", "1.5kg"] },
    price: [4_999, 17_999],
    summary: "A light drill driver for screws and holes in wood and metal.",
  },
  {
    category: "power-tools/impact-drivers",
    names: ["{brand} {Voltage} Impact Driver", "{brand} {Voltage} Brushless Impact Driver"],
    brands: ["Makita", "DeWalt", "Milwaukee", "Ryobi"],
    attributes: { ...powerTool(["12V", "18V"]), "Max torque": ["150Nm", "180Nm", "205Nm"], Drive: ['1/4" hex'], Weight: ["1.1kg", "1.4kg"] },
    price: [6_999, 19_999],
    summary: "Drives long screws and bolts with ease.",
  },
  {
    category: "power-tools/sds-drills",
    names: ["{brand} {Voltage} SDS Plus Hammer Drill", "{brand} SDS Max Rotary Hammer {Voltage}"],
    brands: ["Makita", "DeWalt", "Bosch", "Milwaukee"],
    attributes: { Voltage: ["18V", "110V", "240V"], Warranty: warranty, "Impact energy": ["1.7J", "2.4J", "3.2J", "8.0J"], Weight: ["2.2kg", "3.0kg", "6.1kg"] },
    price: [8_999, 39_999],
    summary: "Breaks through brick, block and concrete.",
  },
  {
    category: "power-tools/saws/circular-saws",
    names: ["{brand} {Blade diameter} Circular Saw {Voltage}"],
    brands: ["Makita", "DeWalt", "Bosch", "Ryobi"],
    attributes: { Voltage: ["18V", "110V", "240V"], Warranty: warranty, "Blade diameter": ["165mm", "184mm", "190mm"], "Max cut depth": ["57mm", "62mm", "66mm"] },
    price: [7_999, 22_999],
    summary: "Straight, fast cuts in sheet material and timber.",
  },
  {
    category: "power-tools/saws/jigsaws",
    names: ["{brand} {Voltage} Pendulum Jigsaw"],
    brands: ["Makita", "DeWalt", "Bosch", "Ryobi"],
    attributes: { Voltage: ["18V", "240V"], Warranty: warranty, "Max cut depth (wood)": ["100mm", "120mm", "135mm"], "Stroke rate": ["3,000spm", "3,500spm"] },
    price: [4_999, 16_999],
    summary: "Curved and straight cuts in wood, metal and plastic.",
  },
  {
    category: "power-tools/saws/mitre-saws",
    names: ["{brand} {Blade diameter} Sliding Mitre Saw {Voltage}"],
    brands: ["Makita", "DeWalt", "Bosch", "Milwaukee"],
    attributes: { Voltage: ["18V", "110V", "240V"], Warranty: warranty, "Blade diameter": ["216mm", "254mm", "305mm"], "Max crosscut": ["305mm", "340mm"] },
    price: [14_999, 59_999],
    summary: "Accurate crosscuts and mitres for trim and framing.",
  },
  {
    category: "power-tools/grinders",
    names: ["{brand} {Disc size} Angle Grinder {Voltage}"],
    brands: ["Makita", "DeWalt", "Bosch", "Milwaukee", "Ryobi"],
    attributes: { Voltage: ["18V", "110V", "240V"], Warranty: warranty, "Disc size": ["115mm", "125mm", "230mm"], "No-load speed": ["6,600rpm", "8,500rpm", "11,000rpm"] },
    price: [3_999, 18_999],
    summary: "Cuts and grinds metal, stone and tile.",
  },
  {
    category: "power-tools/sanders",
    names: ["{brand} {Voltage} Random Orbit Sander", "{brand} Detail Sander {Voltage}"],
    brands: ["Makita", "DeWalt", "Bosch", "Ryobi"],
    attributes: { Voltage: ["18V", "240V"], Warranty: warranty, "Pad size": ["125mm", "150mm"], "Dust extraction": ["Bag", "Port only"] },
    price: [3_999, 14_999],
    summary: "A smooth finish on timber and filler.",
  },
  {
    category: "hand-tools/hammers",
    names: ["{brand} {Head weight} Claw Hammer", "{brand} {Head weight} Club Hammer"],
    brands: ["Stanley", "Irwin"],
    attributes: { "Head weight": ["16oz", "20oz", "2.5lb", "4lb"], Handle: ["Fibreglass", "Steel", "Hickory"], Warranty: ["Lifetime"] },
    price: [999, 3_999],
    summary: "Balanced, shock-absorbing hammers for everyday site work.",
  },
  {
    category: "hand-tools/screwdrivers",
    names: ["{brand} {Pieces} Screwdriver Set", "{brand} VDE Insulated Screwdriver Set {Pieces}"],
    brands: ["Stanley", "Irwin"],
    attributes: { Pieces: ["6 piece", "8 piece", "10 piece"], Tips: ["Slotted and Phillips", "Slotted and Pozidriv", "Torx"], Insulated: ["Yes (1000V)", "No"] },
    price: [899, 4_499],
    summary: "Hardened tips and comfortable grips.",
  },
  {
    category: "hand-tools/measuring-tools",
    names: ["{brand} {Length} Tape Measure", "{brand} Laser Distance Measure {Length}"],
    brands: ["Stanley", "Bosch", "Stabila"],
    attributes: { Length: ["5m", "8m", "10m", "30m", "50m"], Accuracy: ["±1mm", "±1.5mm", "Class II"], Case: ["ABS", "Rubber"] },
    price: [699, 12_999],
    summary: "Measure once, cut once.",
  },
  {
    category: "hand-tools/spirit-levels",
    names: ["{brand} {Length} Box Beam Spirit Level", "{brand} {Length} I-Beam Level"],
    brands: ["Stabila", "Stanley"],
    attributes: { Length: ["600mm", "1200mm", "1800mm"], Vials: ["2", "3"], Accuracy: ["0.5mm/m", "0.3mm/m"] },
    price: [1_499, 8_999],
    summary: "Accurate, shock-resistant levels for every job.",
  },
  {
    category: "building-materials/cement-and-aggregates",
    names: ["{brand} {Bag size} General Purpose Cement", "{brand} {Bag size} Sharp Sand", "{brand} {Bag size} 20mm Gravel"],
    brands: ["Tarmac"],
    attributes: { "Bag size": ["25kg", "Bulk bag (850kg)"], Use: ["Mortar and concrete", "Screed", "Drainage"] },
    price: [599, 6_999],
    summary: "Quality-assured building materials by the bag or bulk bag.",
  },
  {
    category: "building-materials/bricks-and-blocks",
    names: ["{brand} {Size} Concrete Block", "{brand} {Size} Aerated Block"],
    brands: ["Tarmac", "Marshalls"],
    attributes: { Size: ["440 × 215 × 100mm", "440 × 215 × 140mm"], Strength: ["3.6N", "7.3N"], "Pack quantity": ["Single", "Pack of 72"] },
    price: [199, 19_999],
    summary: "Blocks for inner leaf, partition and foundation walls.",
  },
  {
    category: "building-materials/plasterboard",
    names: ["{brand} {Size} {Thickness} Plasterboard", "{brand} Moisture Resistant Board {Thickness}"],
    brands: ["Gyproc"],
    attributes: { Size: ["2400 × 1200mm", "1800 × 900mm"], Thickness: ["9.5mm", "12.5mm", "15mm"], Edge: ["Tapered", "Square"] },
    price: [699, 1_899],
    summary: "Plasterboard for walls and ceilings.",
  },
  {
    category: "building-materials/insulation",
    names: ["{brand} {Thickness} PIR Insulation Board", "{brand} {Thickness} Cavity Wall Board"],
    brands: ["Kingspan", "Celotex"],
    attributes: { Thickness: ["25mm", "50mm", "75mm", "100mm"], Size: ["2400 × 1200mm"], "Thermal conductivity": ["0.022 W/mK", "0.020 W/mK"] },
    price: [1_499, 5_999],
    summary: "High-performance insulation boards.",
  },
  {
    category: "timber/sheet-materials",
    names: ["{brand} {Thickness} Structural Plywood {Size}", "{brand} {Thickness} OSB3 Board {Size}"],
    brands: ["Metsä Wood"],
    attributes: { Thickness: ["9mm", "12mm", "18mm", "25mm"], Size: ["2440 × 1220mm"], Grade: ["Structural", "Exterior"] },
    price: [1_899, 6_999],
    summary: "Sheet materials for floors, roofs and hoarding.",
  },
  {
    category: "timber/cls-studwork",
    names: ["{brand} CLS Timber {Section} × {Length}"],
    brands: ["Metsä Wood"],
    attributes: { Section: ["38 × 63mm", "38 × 89mm"], Length: ["2.4m", "3.0m", "3.6m"], Treatment: ["Kiln dried", "Treated"] },
    price: [349, 1_299],
    summary: "Planed, rounded studwork timber for partitions.",
  },
  {
    category: "timber/decking",
    names: ["{brand} Grooved Decking Board {Length}", "{brand} Deck Joist {Length}"],
    brands: ["Forest Garden"],
    attributes: { Length: ["2.4m", "3.6m", "4.8m"], Width: ["120mm", "144mm"], Treatment: ["Pressure treated", "Composite"] },
    price: [599, 3_499],
    summary: "Decking boards and joists for garden projects.",
  },
  {
    category: "plumbing/copper-pipe-and-fittings",
    names: ["{brand} {Diameter} Copper Pipe {Length}", "{brand} {Diameter} End Feed Elbow (Pack of 10)"],
    brands: ["Pegler"],
    attributes: { Diameter: ["15mm", "22mm", "28mm"], Length: ["2m", "3m", "—"], Material: ["Copper", "Brass"] },
    price: [299, 2_999],
    summary: "Pipe and fittings for water and heating.",
  },
  {
    category: "plumbing/push-fit",
    names: ["{brand} {Diameter} Push-fit Straight Coupler", "{brand} {Diameter} Push-fit Tee", "{brand} {Diameter} PEX Barrier Pipe {Length}"],
    brands: ["JG Speedfit"],
    attributes: { Diameter: ["10mm", "15mm", "22mm"], Length: ["—", "3m", "25m coil"], Material: ["Acetal", "PEX"] },
    price: [199, 4_999],
    summary: "Fast, tool-free plumbing connections.",
  },
  {
    category: "plumbing/radiators",
    names: ["{brand} Type {Type} Radiator {Size}"],
    brands: ["Stelrad"],
    attributes: { Type: ["11", "21", "22"], Size: ["600 × 600mm", "600 × 1000mm", "600 × 1400mm"], "Heat output": ["572W", "1130W", "1840W"] },
    price: [3_999, 16_999],
    summary: "Steel panel radiators with brackets.",
  },
  {
    category: "electrical/cable",
    names: ["{brand} {Size} Twin & Earth Cable {Length}"],
    brands: ["Hager", "Crabtree"],
    attributes: { Size: ["1.0mm²", "1.5mm²", "2.5mm²", "6.0mm²"], Length: ["50m", "100m"], Standard: ["6242Y BS 6004"] },
    price: [2_499, 14_999],
    summary: "Flat twin and earth cable for domestic wiring.",
  },
  {
    category: "electrical/sockets-and-switches",
    names: ["{brand} {Gangs} Switched Socket {Finish}", "{brand} {Gangs} Light Switch {Finish}"],
    brands: ["Crabtree", "Hager"],
    attributes: { Gangs: ["1 gang", "2 gang"], Finish: ["White", "Brushed steel", "Black nickel"], USB: ["No", "USB-A + USB-C"] },
    price: [299, 2_999],
    summary: "Wiring accessories in a choice of finishes.",
  },
  {
    category: "electrical/lighting",
    names: ["{brand} {Wattage} LED Batten {Length}", "{brand} {Wattage} LED Site Light"],
    brands: ["Philips"],
    attributes: { Wattage: ["20W", "40W", "50W"], Length: ["1200mm", "1500mm", "—"], "Colour temperature": ["4000K", "6500K"] },
    price: [1_499, 7_999],
    summary: "Bright, efficient LED lighting.",
  },
  {
    category: "kitchens/worktops",
    names: ["{brand} {Finish} Laminate Worktop {Length}"],
    brands: ["Metsä Wood"],
    attributes: { Finish: ["Oak", "Black granite", "White gloss", "Concrete"], Length: ["3m", "3.6m"], Thickness: ["28mm", "38mm"] },
    price: [6_999, 19_999],
    summary: "Hard-wearing laminate worktops.",
  },
  {
    category: "kitchens/sinks-and-taps",
    names: ["{brand} {Finish} Mono Mixer Kitchen Tap", "{brand} 1.5 Bowl Sink {Finish}"],
    brands: ["Bristan"],
    attributes: { Finish: ["Chrome", "Brushed nickel", "Stainless steel", "Black"], "Min pressure": ["0.2 bar", "1.0 bar"], Warranty: ["5 years", "10 years"] },
    price: [4_999, 24_999],
    summary: "Taps and sinks for busy kitchens.",
  },
  {
    category: "bathrooms/showers",
    names: ["{brand} {Power} Electric Shower", "{brand} Thermostatic Mixer Shower {Finish}", "{brand} Stainless Grab Rail {Length}"],
    brands: ["Mira", "Bristan"],
    attributes: { Power: ["8.5kW", "9.5kW", "10.8kW", "—"], Finish: ["White", "Chrome"], Length: ["300mm", "450mm", "—"] },
    price: [2_499, 39_999],
    summary: "Showers and accessories for every bathroom.",
  },
  {
    category: "bathrooms/tiles",
    names: ["{brand} {Size} {Finish} Wall Tile (1m²)", "{brand} {Size} Porcelain Floor Tile (1m²)"],
    brands: ["Marshalls"],
    attributes: { Size: ["300 × 600mm", "600 × 600mm", "200 × 250mm"], Finish: ["Gloss white", "Matt grey", "Stone effect"], Material: ["Ceramic", "Porcelain"] },
    price: [1_499, 4_999],
    summary: "Wall and floor tiles, priced per square metre.",
  },
  {
    category: "garden/paving",
    names: ["{brand} {Size} {Finish} Paving Slab", "{brand} Block Paving {Finish} (per m²)"],
    brands: ["Marshalls"],
    attributes: { Size: ["600 × 600mm", "450 × 450mm", "200 × 100mm"], Finish: ["Riven buff", "Smooth grey", "Brindle"], Thickness: ["35mm", "50mm"] },
    price: [499, 3_999],
    summary: "Paving for patios, paths and drives.",
  },
  {
    category: "garden/fencing",
    names: ["{brand} {Height} Closeboard Fence Panel", "{brand} {Height} Fence Post"],
    brands: ["Forest Garden"],
    attributes: { Height: ["0.9m", "1.5m", "1.8m"], Width: ["1.83m", "—"], Treatment: ["Pressure treated", "Dip treated"] },
    price: [999, 5_999],
    summary: "Fence panels and posts for every boundary.",
  },
  {
    category: "safety-and-workwear/safety-boots",
    names: ["{brand} {Rating} Safety Boot Size {Size}", "{brand} {Rating} Safety Trainer Size {Size}"],
    brands: ["Scruffs", "JSP"],
    attributes: { Size: ["7", "8", "9", "10", "11"], Rating: ["S1P", "S3"], "Toe cap": ["Steel", "Composite"] },
    price: [2_999, 8_999],
    summary: "Protective footwear with toe caps and midsoles.",
  },
  {
    category: "safety-and-workwear/hi-vis",
    names: ["{brand} Hi-Vis {Garment} {Colour} {Size}"],
    brands: ["JSP", "Scruffs"],
    attributes: { Garment: ["Vest", "Jacket", "Trousers"], Colour: ["Yellow", "Orange"], Size: ["M", "L", "XL"], Class: ["Class 2", "Class 3"] },
    price: [399, 5_999],
    summary: "High-visibility clothing to EN ISO 20471.",
  },
  {
    category: "safety-and-workwear/gloves",
    names: ["{brand} {Type} Work Gloves {Size}"],
    brands: ["JSP", "Scruffs"],
    attributes: { Type: ["Cut-resistant", "Nitrile coated", "Thermal", "Rigger"], Size: ["8 (M)", "9 (L)", "10 (XL)"], "Cut level": ["A", "B", "C"] },
    price: [299, 1_999],
    summary: "Grip and protection for handling and tools.",
  },
];

/** A small, seeded random source (mulberry32): the same demo every time. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
