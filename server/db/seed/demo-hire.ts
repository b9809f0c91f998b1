import type { Db } from "../client.ts";
import { asc, eq, sql } from "drizzle-orm";
import { branches, hireCategories, hireDeliveryBands, hireItems, hireUnits } from "../schema.ts";
import { slugify } from "./demo-categories.ts";

/** [name, day £, weekend £, week £, deposit £, units, specifications] */
type Row = [string, number, number, number, number, number, [string, string][]];

const fleet: Record<string, Row[]> = {
  Access: [
    ["Aluminium Scaffold Tower 5.2m", 45, 68, 90, 100, 4, [["Platform height", "5.2m"], ["Platform size", "1.8 × 0.85m"]]],
    ["Podium Step 2-Tread", 18, 27, 36, 50, 6, [["Platform height", "0.5m"], ["Max load", "150kg"]]],
    ["Telescopic Ladder 3.8m", 15, 22, 30, 40, 5, [["Length", "3.8m"], ["Standard", "EN 131"]]],
    ["Scissor Lift 8m Electric", 120, 180, 330, 500, 2, [["Working height", "8m"], ["Power", "Battery"]]],
  ],
  "Breaking and Drilling": [
    ["Heavy Duty Breaker 110V", 40, 60, 80, 100, 5, [["Impact energy", "45J"], ["Voltage", "110V"]]],
    ["SDS Max Combi Hammer 110V", 28, 42, 56, 80, 6, [["Impact energy", "8J"], ["Voltage", "110V"]]],
    ["Diamond Core Drill Rig", 55, 82, 140, 200, 2, [["Max core", "250mm"], ["Voltage", "110V"]]],
    ["Hydraulic Breaker Pack", 75, 112, 190, 300, 2, [["Engine", "Petrol"], ["Hose length", "7m"]]],
  ],
  Compaction: [
    ["Plate Compactor Petrol", 35, 52, 70, 100, 4, [["Plate size", "500 × 400mm"], ["Engine", "Honda GX160"]]],
    ["Trench Rammer", 42, 63, 84, 150, 2, [["Foot size", "280mm"], ["Engine", "4-stroke"]]],
    ["Single Drum Roller 700mm", 90, 135, 225, 300, 1, [["Drum width", "700mm"], ["Weight", "650kg"]]],
  ],
  "Concrete and Tiling": [
    ["Cement Mixer 110V", 22, 33, 44, 50, 6, [["Drum capacity", "134 litres"], ["Voltage", "110V"]]],
    ["Floor Saw Petrol 450mm", 70, 105, 175, 250, 2, [["Blade", "450mm"], ["Cut depth", "160mm"]]],
    ["Tile Cutter Wet 110V", 30, 45, 60, 80, 3, [["Max cut", "900mm"], ["Voltage", "110V"]]],
    ["Poker Vibrator Petrol", 32, 48, 64, 100, 2, [["Poker", "38mm"], ["Hose", "5m"]]],
  ],
  Cleaning: [
    ["Pressure Washer Petrol 3000psi", 40, 60, 80, 100, 4, [["Pressure", "3000psi"], ["Flow", "12 l/min"]]],
    ["Carpet Cleaner", 28, 42, 56, 60, 3, [["Tank", "15 litres"], ["Voltage", "240V"]]],
    ["Industrial Vacuum M-Class", 25, 37, 50, 60, 4, [["Dust class", "M"], ["Voltage", "110V"]]],
  ],
  "Garden and Landscaping": [
    ["Turf Cutter", 60, 90, 150, 150, 2, [["Cut width", "300mm"], ["Engine", "Petrol"]]],
    ["Rotavator 5hp", 45, 67, 90, 100, 3, [["Working width", "600mm"], ["Engine", "5hp"]]],
    ["Hedge Trimmer Long Reach", 28, 42, 56, 60, 3, [["Reach", "3.5m"], ["Engine", "2-stroke"]]],
    ["Stump Grinder", 110, 165, 275, 300, 1, [["Cutting depth", "250mm"], ["Engine", "13hp"]]],
    ["Log Splitter 8 Tonne", 50, 75, 125, 150, 2, [["Force", "8 tonnes"], ["Power", "Petrol"]]],
  ],
  "Generators and Power": [
    ["Generator 3.0kVA", 38, 57, 76, 150, 4, [["Output", "3.0kVA"], ["Sockets", "110V and 240V"]]],
    ["Generator 6.0kVA Diesel", 65, 97, 163, 250, 2, [["Output", "6.0kVA"], ["Fuel", "Diesel"]]],
    ["Site Transformer 3kVA", 12, 18, 24, 40, 8, [["Output", "110V"], ["Rating", "3kVA"]]],
  ],
  "Heating and Drying": [
    ["Dehumidifier Building Dryer", 25, 37, 50, 80, 6, [["Extraction", "50 l/day"], ["Voltage", "240V"]]],
    ["Space Heater Propane 45kW", 30, 45, 60, 100, 3, [["Output", "45kW"], ["Fuel", "Propane"]]],
    ["Infrared Heater 110V", 18, 27, 36, 50, 4, [["Output", "3kW"], ["Voltage", "110V"]]],
  ],
  Lifting: [
    ["Chain Hoist 1 Tonne", 20, 30, 40, 80, 3, [["Capacity", "1 tonne"], ["Lift", "3m"]]],
    ["Plasterboard Lifter", 22, 33, 44, 60, 3, [["Max height", "3.4m"], ["Board size", "2400 × 1200mm"]]],
    ["Engine Crane 2 Tonne", 30, 45, 75, 100, 1, [["Capacity", "2 tonnes"], ["Type", "Folding"]]],
  ],
  Plant: [
    ["Mini Excavator 1.5 Tonne", 150, 225, 450, 500, 2, [["Operating weight", "1.5 tonnes"], ["Dig depth", "2.2m"]]],
    ["Micro Excavator 0.8 Tonne", 120, 180, 360, 400, 2, [["Operating weight", "0.8 tonnes"], ["Width", "0.7m"]]],
    ["Tracked Dumper 1 Tonne", 95, 142, 285, 300, 2, [["Payload", "1 tonne"], ["Tip", "High tip"]]],
    ["Skid Steer Loader", 175, 262, 525, 500, 1, [["Rated capacity", "700kg"], ["Bucket", "1.5m"]]],
  ],
  Pumps: [
    ["Submersible Pump 2in 110V", 20, 30, 40, 60, 5, [["Outlet", "2in"], ["Flow", "300 l/min"]]],
    ["Petrol Water Pump 3in", 35, 52, 70, 100, 3, [["Outlet", "3in"], ["Flow", "1,000 l/min"]]],
    ["Sludge Pump 2in", 28, 42, 56, 80, 2, [["Outlet", "2in"], ["Solids", "25mm"]]],
  ],
  "Site Equipment": [
    ["Site Safe Vault", 15, 22, 30, 60, 4, [["Size", "1.2m"], ["Locking", "Padlock"]]],
    ["Barrier Fencing Panel (pack of 10)", 12, 18, 24, 50, 10, [["Panel", "3.5 × 2m"], ["Feet", "Included"]]],
    ["Welfare Unit 4-Person", 95, 142, 285, 300, 1, [["Seats", "4"], ["Toilet", "Included"]]],
    ["Laser Level Rotating", 35, 52, 70, 150, 3, [["Range", "600m"], ["Accuracy", "±1.5mm at 30m"]]],
  ],
};

/** Seeds the demo hire fleet; returns how many hire items were made. */
export async function seedDemoHire(tx: Db): Promise<number> {
  let items = 0;
  let asset = 10000;
  for (const [position, [categoryName, rows]] of Object.entries(fleet).entries()) {
    const [category] = await tx
      .insert(hireCategories)
      .values({ slug: slugify(categoryName), name: categoryName, position })
      .returning({ id: hireCategories.id });
    for (const [name, day, weekend, week, deposit, units, specs] of rows) {
      const slug = slugify(name);
      const [item] = await tx
        .insert(hireItems)
        .values({
          slug,
          name,
          description: `${name} for hire by the day, weekend or week. Checked, cleaned and safety-tested before every hire; supplied with instructions and the right PPE advice.`,
          hireCategoryId: category!.id,
          images: [{ src: `/images/products/${slug}/1.svg`, alt: name }],
          specifications: specs.map(([n, v]) => ({ name: n, value: v })),
          dayRate: day * 100,
          weekendRate: weekend * 100,
          weekRate: week * 100,
          deposit: deposit * 100,
        })
        .returning({ id: hireItems.id });
      await tx.insert(hireUnits).values(Array.from({ length: units }, () => ({ hireItemId: item!.id, assetNumber: `HA-${++asset}` })));
      items += 1;
    }
  }
  return items;
}

/**
 * The demo's second hire depot (issue 30), seeded once the branches are: the
 * fleet seeded above is at the default depot (Leeds), and Harrogate gets one
 * more unit of each item Leeds holds three or more of, so availability and
 * transfers differ by depot. The merchant's delivery bands: up to 10 miles
 * £25, 25 miles £45, 50 miles £75 (ex VAT); beyond, collection only.
 */
export async function seedDemoDepots(tx: Db): Promise<void> {
  const [harrogate] = await tx.select({ id: branches.id }).from(branches).where(eq(branches.slug, "harrogate"));
  if (!harrogate) return;
  const items = await tx
    .select({ id: hireItems.id })
    .from(hireItems)
    .where(sql`(select count(*) from ${hireUnits} u where u.hire_item_id = ${hireItems.id}) >= 3`)
    .orderBy(asc(hireItems.id));
  let asset = 20000;
  if (items.length) await tx.insert(hireUnits).values(items.map((i) => ({ hireItemId: i.id, assetNumber: `HA-${++asset}`, branchId: harrogate.id })));
  await tx.insert(hireDeliveryBands).values([
    { upToMiles: 10, pricePence: 2500 },
    { upToMiles: 25, pricePence: 4500 },
    { upToMiles: 50, pricePence: 7500 },
  ]);
}
