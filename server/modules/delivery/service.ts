import { getTableColumns, sql } from "drizzle-orm";
import { toOutcode } from "postcode";
import type { Db } from "../../db/client.ts";
import { jsonObject } from "../../db/json-object.ts";
import { deliveryMethods, deliveryZones } from "./schema.ts";

export interface DeliveryOption {
  id: string;
  name: string;
  description: string;
  kind: string;
  /** Pounds inc VAT for this basket and postcode. */
  price: number;
  /** Why it costs what it does, in words. */
  notes: string[];
}

export interface PaymentOption {
  id: "bank_transfer" | "pay_on_collection";
  name: string;
  description: string;
}

export interface DeliveryQuoteInput {
  /** Goods total inc VAT, in pence. */
  goodsTotal: number;
  hasHeavy: boolean;
  postcode?: string | null;
  /** A free-delivery code in the basket (promotions, issue 32): standard delivery's own price (kind `delivery`, not next day) is waived; surcharges for heavy goods and far zones stay. */
  freeDeliveryCode?: string | null;
}

function zoneMatches(zone: typeof deliveryZones.$inferSelect, outcode: string): boolean {
  const m = /^([A-Z]{1,2})(\d{1,2})/.exec(outcode);
  if (!m || m[1] !== zone.area) return false;
  if (zone.districtFrom === null) return true;
  const district = Number(m[2]);
  return district >= zone.districtFrom && district <= (zone.districtTo ?? zone.districtFrom);
}

/** Delivery and payment methods that apply to a basket and postcode, from the rules in the database. */
export function createDeliveryService(db: Db) {
  /**
   * The active methods and every zone, read in one statement (issue 35: checkout reads them inside its transaction, where
   * each round trip counts). Pass the transaction when called inside one (PGlite runs one query at a time).
   */
  async function rules(handle: Db = db): Promise<{ methods: (typeof deliveryMethods.$inferSelect)[]; zones: (typeof deliveryZones.$inferSelect)[] }> {
    const [row] = await handle
      .select({
        methods: sql<(typeof deliveryMethods.$inferSelect)[]>`(select coalesce(json_agg(${jsonObject(getTableColumns(deliveryMethods))} order by ${deliveryMethods.position}), '[]') from ${deliveryMethods} where ${deliveryMethods.active})`,
        zones: sql<(typeof deliveryZones.$inferSelect)[]>`(select coalesce(json_agg(${jsonObject(getTableColumns(deliveryZones))} order by ${deliveryZones.id}), '[]') from ${deliveryZones})`,
      })
      .from(sql`(select 1) one`);
    return row!;
  }

  return {
    rules,

    async options(input: DeliveryQuoteInput, handle: Db = db): Promise<{ delivery: DeliveryOption[]; payment: PaymentOption[]; zone: { name: string; served: boolean } | null }> {
      const { methods, zones } = await rules(handle);
      const outcode = input.postcode ? toOutcode(input.postcode) : null;
      const zone = outcode ? zones.find((z) => zoneMatches(z, outcode)) ?? null : null;
      const delivery: DeliveryOption[] = [];
      for (const m of methods) {
        const notes: string[] = [];
        if (m.kind !== "collect") {
          if (zone?.action === "not_served") continue;
          if (m.kind === "next_day" && zone?.noNextDay) continue;
        }
        let price = m.price;
        if (m.freeOver !== null && input.goodsTotal >= m.freeOver) {
          price = 0;
          notes.push(`Free on orders of £${(m.freeOver / 100).toFixed(2)} or more.`);
        }
        if (m.kind === "delivery" && input.freeDeliveryCode && price > 0) {
          price = 0;
          notes.push(`Free with the code ${input.freeDeliveryCode}.`);
        }
        if (m.kind !== "collect" && input.hasHeavy && m.heavySurcharge > 0) {
          price += m.heavySurcharge;
          notes.push(`Includes £${(m.heavySurcharge / 100).toFixed(2)} for heavy or bulky items.`);
        }
        if (m.kind !== "collect" && zone?.action === "surcharge" && zone.surcharge > 0) {
          price += zone.surcharge;
          notes.push(`Includes £${(zone.surcharge / 100).toFixed(2)} for delivery to ${zone.name}.`);
        }
        if (m.cutoff) notes.push(`Order by ${m.cutoff} (UK time) on a working day.`);
        delivery.push({ id: m.code, name: m.name, description: m.description, kind: m.kind, price: price / 100, notes });
      }
      const payment: PaymentOption[] = [
        { id: "bank_transfer", name: "Bank transfer", description: "We email our bank details; the order is sent once the payment arrives." },
        { id: "pay_on_collection", name: "Pay on collection", description: "Pay at the branch when you collect (click & collect only)." },
      ];
      return { delivery, payment, zone: zone ? { name: zone.name, served: zone.action !== "not_served" } : null };
    },
  };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
