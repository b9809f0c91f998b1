import { eq, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { type DayHours } from "../../modules/branches/hours.ts";
import { branches } from "../../modules/branches/schema.ts";
import { postcodeLocations } from "../../modules/postcode/schema.ts";

/**
 * The demo's branches (issue 30): four towns, one the default (Leeds, also a
 * hire depot), one a hire depot (Harrogate), one with a kitchen and bathroom showroom (York),
 * and where the demo's postcodes are, so the branch finder works out of the
 * box. Coordinates are each district's approximate centre (for a real shop,
 * import the ONS Postcode Directory: see docs/features.md, Branches).
 */

const weekdays = (opens: string, closes: string): DayHours[] => [1, 2, 3, 4, 5].map((day) => ({ day, opens, closes }));

export const DEMO_BRANCHES = [
  {
    slug: "leeds",
    name: "Leeds, Canal Wharf",
    line1: "Unit 4, Canal Wharf",
    town: "Leeds",
    county: "West Yorkshire",
    postcode: "LS11 5PS",
    lat: 53.7906,
    lng: -1.5536,
    phone: "0113 496 0000",
    email: "leeds@tradecounter.example",
    services: ["collect", "trade_counter", "hire"] as const,
    openingHours: [...weekdays("07:00", "17:30"), { day: 6, opens: "08:00", closes: "12:00" }],
    isDefault: true,
    collectLeadMinutes: 60,
  },
  {
    slug: "york",
    name: "York, Foss Islands",
    line1: "Foss Islands Road",
    town: "York",
    county: "North Yorkshire",
    postcode: "YO31 7UL",
    lat: 53.9611,
    lng: -1.0705,
    phone: "01904 496 000",
    email: "york@tradecounter.example",
    services: ["collect", "trade_counter", "showroom"] as const,
    openingHours: [...weekdays("07:30", "17:00"), { day: 6, opens: "08:00", closes: "13:00" }, { day: 7, opens: "10:00", closes: "14:00" }],
    isDefault: false,
    collectLeadMinutes: 60,
    // Design consultations in the showroom: an hour each, two designers.
    appointmentMinutes: 60,
    appointmentDesigners: 2,
  },
  {
    slug: "harrogate",
    name: "Harrogate hire depot",
    line1: "Hookstone Road",
    town: "Harrogate",
    county: "North Yorkshire",
    postcode: "HG2 8PW",
    lat: 53.987,
    lng: -1.511,
    phone: "01423 496 000",
    email: "harrogate@tradecounter.example",
    services: ["collect", "hire"] as const,
    openingHours: [...weekdays("07:00", "17:00"), { day: 6, opens: "08:00", closes: "12:00" }],
    isDefault: false,
    collectLeadMinutes: 120,
  },
  {
    slug: "manchester",
    name: "Manchester, Store Street",
    line1: "Store Street",
    town: "Manchester",
    county: "Greater Manchester",
    postcode: "M1 2WD",
    lat: 53.479,
    lng: -2.229,
    phone: "0161 496 0000",
    email: "manchester@tradecounter.example",
    services: ["collect", "trade_counter"] as const,
    openingHours: [...weekdays("07:00", "17:00"), { day: 6, opens: "08:00", closes: "12:00" }],
    isDefault: false,
    collectLeadMinutes: 60,
  },
];

/** The centres of the districts the demo's addresses are in (demo-delivery.ts), and its branches' towns. */
const DISTRICT_CENTRES: Record<string, [number, number]> = {
  LS1: [53.7965, -1.5478],
  LS6: [53.8195, -1.5776],
  LS11: [53.7806, -1.5563],
  M1: [53.4794, -2.2371],
  SW1A: [51.5014, -0.1419],
  IV2: [57.4778, -4.2247],
  BT1: [54.5997, -5.9289],
  YO31: [53.9707, -1.0647],
  HG2: [53.9822, -1.5183],
};

/** A postcode's place: its district's centre, moved a little by its sector and unit so no two are the same. */
function placeOf(postcode: string): { lat: number; lng: number } | null {
  const [outward, inward = ""] = postcode.split(" ");
  const centre = DISTRICT_CENTRES[outward!];
  if (!centre) return null;
  const code = [...inward].reduce((n, c) => n * 31 + c.charCodeAt(0), 7);
  return { lat: Math.round((centre[0] + ((code % 97) - 48) / 9700) * 1e6) / 1e6, lng: Math.round((centre[1] + ((code % 89) - 44) / 5900) * 1e6) / 1e6 };
}

export async function seedDemoBranches(tx: Db): Promise<number> {
  // The shop's default branch (made by migration 0034, where everything is until a branch is named) becomes Leeds.
  const [home, ...others] = DEMO_BRANCHES.map((b, position) => ({ ...b, services: [...b.services], position }));
  await tx.update(branches).set(home!).where(eq(branches.isDefault, true));
  await tx.insert(branches).values(others);
  // Every demo address's postcode, and the branches' own, gets a place.
  const postcodes = (await tx.execute(sql`select distinct postcode from postcode_addresses`)) as unknown as { rows: { postcode: string }[] };
  const places = [...postcodes.rows.map((r) => r.postcode), ...DEMO_BRANCHES.map((b) => b.postcode)].flatMap((postcode) => {
    const place = DEMO_BRANCHES.find((b) => b.postcode === postcode) ?? placeOf(postcode);
    return place ? [{ postcode, lat: place.lat, lng: place.lng }] : [];
  });
  for (let i = 0; i < places.length; i += 1000) await tx.insert(postcodeLocations).values(places.slice(i, i + 1000)).onConflictDoNothing();
  return DEMO_BRANCHES.length;
}
