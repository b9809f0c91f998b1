import type { Db } from "../client.ts";
import { deliveryMethods, deliveryZones, postcodeAddresses } from "../schema.ts";
import { seededRandom } from "./demo-catalogue.ts";

type Zone = [name: string, area: string, from: number | null, to: number | null, action: "surcharge" | "not_served", surchargePounds: number];

const HIGHLANDS = "the Scottish Highlands and Islands";
const zones: Zone[] = [
  [HIGHLANDS, "IV", null, null, "surcharge", 20],
  [HIGHLANDS, "HS", null, null, "surcharge", 20],
  [HIGHLANDS, "KW", null, null, "surcharge", 20],
  [HIGHLANDS, "ZE", null, null, "surcharge", 20],
  [HIGHLANDS, "KA", 27, 28, "surcharge", 20],
  [HIGHLANDS, "PA", 20, 49, "surcharge", 20],
  [HIGHLANDS, "PA", 60, 78, "surcharge", 20],
  [HIGHLANDS, "PH", 17, 26, "surcharge", 20],
  [HIGHLANDS, "PH", 30, 44, "surcharge", 20],
  [HIGHLANDS, "PH", 49, 50, "surcharge", 20],
  ["Northern Ireland", "BT", null, null, "surcharge", 15],
  ["the Isles of Scilly", "TR", 21, 25, "surcharge", 25],
  ["the Isle of Man", "IM", null, null, "not_served", 0],
  ["Guernsey", "GY", null, null, "not_served", 0],
  ["Jersey", "JE", null, null, "not_served", 0],
];

const DISTRICTS: [outcode: string, town: string, county: string][] = [
  ["LS1", "Leeds", "West Yorkshire"],
  ["LS6", "Leeds", "West Yorkshire"],
  ["M1", "Manchester", "Greater Manchester"],
  ["SW1A", "London", ""],
  ["IV2", "Inverness", "Highland"],
  ["BT1", "Belfast", "County Antrim"],
];
const STREETS = ["High Street", "Station Road", "Church Lane", "Mill Lane", "Park Road", "Victoria Street", "King Street", "Albert Road", "Trade Park", "Canal Wharf"];

/** The demo delivery rules, and a few thousand addresses in a few districts for the built-in postcode lookup. */
export async function seedDemoDelivery(tx: Db): Promise<{ addresses: number }> {
  await tx.insert(deliveryMethods).values([
    { code: "standard", name: "Standard delivery", description: "3 to 5 working days.", kind: "delivery", price: 695, freeOver: 7500, heavySurcharge: 2500, position: 0 },
    { code: "next_day", name: "Next working day", description: "Delivered the next working day.", kind: "next_day", price: 1295, cutoff: "14:00", heavySurcharge: 2500, position: 1 },
    { code: "collect", name: "Click & collect", description: "Collect from the branch, usually within 2 hours.", kind: "collect", price: 0, position: 2 },
  ]);
  await tx.insert(deliveryZones).values(
    zones.map(([name, area, from, to, action, surcharge]) => ({ name, area, districtFrom: from, districtTo: to, action, surcharge: surcharge * 100 })),
  );
  const random = seededRandom(44);
  const rows: (typeof postcodeAddresses.$inferInsert)[] = [];
  for (const [outcode, town, county] of DISTRICTS) {
    for (let sector = 1; sector <= 4; sector++) {
      for (let unit = 0; unit < 10; unit++) {
        const postcode = `${outcode} ${sector}${"ABDEFGHJLNPQRSTUWXYZ"[unit * 2]}${"ABDEFGHJLNPQRSTUWXYZ"[(unit * 7) % 20]}`;
        const street = STREETS[Math.floor(random() * STREETS.length)]!;
        const houses = 8 + Math.floor(random() * 6);
        for (let n = 1; n <= houses; n++) rows.push({ postcode, line1: `${n * 2 - 1 + (unit % 2)} ${street}`, town, county });
      }
    }
  }
  for (let i = 0; i < rows.length; i += 1000) await tx.insert(postcodeAddresses).values(rows.slice(i, i + 1000));
  return { addresses: rows.length };
}
