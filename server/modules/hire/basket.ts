import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import type { BasketOwner } from "../../plugins/guest.ts";
import { pounds } from "../catalog/products/products.ts";
import { type PricingSettings, DEFAULT_PRICING, londonDate, quoteLine } from "./pricing.ts";
import { checkHireDates } from "./dates.ts";
import { hireBasketLines, hireBaskets, hireItems } from "./schema.ts";
import type { HireService } from "./service.ts";
import { type Depot, type DepotService, atDepot } from "./depots/service.ts";

export interface HireBasketItem {
  id: number;
  hire_item_id: number;
  name: string;
  slug: string;
  image: { src: string; alt: string } | null;
  quantity: number;
  start_date: string;
  end_date: string;
  days: number;
  hire_cost: number;
  vat: number;
  deposit: number;
}

export interface HireCart {
  items: HireBasketItem[];
  /** The depot the hire goes out from; `chosen` false: not chosen yet, the default depot shown (the page offers my branch when it is a depot). */
  depot: { slug: string; name: string; town: string; chosen: boolean } | null;
  totals: { hire_cost: number; deposit: number; vat: number; total: number };
  itemCount: number;
}

function ownerCondition(owner: BasketOwner) {
  return "userId" in owner ? eq(hireBaskets.userId, owner.userId) : eq(hireBaskets.guestTokenHash, owner.guestHash);
}

export function createHireBasketService(db: Db, hire: HireService, depots: DepotService, settings: PricingSettings = DEFAULT_PRICING) {
  async function basketRow(owner: BasketOwner): Promise<{ id: number; branchId: number | null } | null> {
    const [row] = await db.select({ id: hireBaskets.id, branchId: hireBaskets.branchId }).from(hireBaskets).where(ownerCondition(owner)).limit(1);
    return row ?? null;
  }
  /** The basket's line of this item for these dates, if it has one: the same item and dates are one line. */
  async function sameLine(basket: number, hireItemId: number, startDate: string, endDate: string) {
    const [line] = await db
      .select()
      .from(hireBasketLines)
      .where(and(eq(hireBasketLines.basketId, basket), eq(hireBasketLines.hireItemId, hireItemId), eq(hireBasketLines.startDate, startDate), eq(hireBasketLines.endDate, endDate)))
      .limit(1);
    return line;
  }
  async function basketId(owner: BasketOwner): Promise<number | null> {
    return (await basketRow(owner))?.id ?? null;
  }

  async function ensureBasket(owner: BasketOwner): Promise<number> {
    const existing = await basketId(owner);
    if (existing) return existing;
    const values = "userId" in owner ? { userId: owner.userId } : { guestTokenHash: owner.guestHash };
    const [row] = await db.insert(hireBaskets).values(values).onConflictDoNothing().returning({ id: hireBaskets.id });
    return row?.id ?? (await basketId(owner))!;
  }

  /** The quantity must fit the units free at the depot for those dates, or that can be moved there for them; the message says how many. */
  async function checkAvailable(itemId: number, quantity: number, start: string, end: string, depot: Depot): Promise<void> {
    const here = await hire.freeUnits(itemId, start, end, depot.id);
    const free = here >= quantity ? here : here + (await hire.byTransfer(itemId, start, end, depot.id));
    if (quantity > free) {
      throw new ValidationError({
        quantity: [free === 0 ? `None available${atDepot(depot)} for those dates.` : `Only ${free} available${atDepot(depot)} for those dates.`],
      });
    }
  }

  /** The basket's depot: the one chosen, else the default depot. */
  async function depotOf(branchId: number | null | undefined) {
    return depots.resolve({ id: branchId ?? null });
  }

  async function cart(owner: BasketOwner): Promise<HireCart> {
    const row = await basketRow(owner);
    const id = row?.id ?? null;
    const depot = await depotOf(row?.branchId);
    const rows = id
      ? await db
          .select({ line: hireBasketLines, item: hireItems })
          .from(hireBasketLines)
          .innerJoin(hireItems, eq(hireItems.id, hireBasketLines.hireItemId))
          .where(eq(hireBasketLines.basketId, id))
          .orderBy(asc(hireBasketLines.id))
      : [];
    const totals = { hire: 0, vat: 0, deposit: 0 };
    const items = rows.map(({ line, item }) => {
      const q = quoteLine(item, line, settings);
      totals.hire += q.hireCost;
      totals.vat += q.vat;
      totals.deposit += q.deposit;
      return {
        id: line.id,
        hire_item_id: item.id,
        name: item.name,
        slug: item.slug,
        image: item.images[0] ?? null,
        quantity: line.quantity,
        start_date: line.startDate,
        end_date: line.endDate,
        days: q.days,
        hire_cost: pounds(q.hireCost),
        vat: pounds(q.vat),
        deposit: pounds(q.deposit),
      };
    });
    return {
      items,
      depot: depot ? { slug: depot.slug, name: depot.name, town: depot.town, chosen: row?.branchId === depot.id } : null,
      totals: {
        hire_cost: pounds(totals.hire),
        vat: pounds(totals.vat),
        deposit: pounds(totals.deposit),
        total: pounds(totals.hire + totals.vat + totals.deposit),
      },
      itemCount: items.reduce((n, i) => n + i.quantity, 0),
    };
  }

  async function lineOf(owner: BasketOwner, lineId: number) {
    const [row] = await db
      .select({ line: hireBasketLines })
      .from(hireBasketLines)
      .innerJoin(hireBaskets, eq(hireBaskets.id, hireBasketLines.basketId))
      .where(and(eq(hireBasketLines.id, lineId), ownerCondition(owner)))
      .limit(1);
    if (!row) throw new HttpError(404, "That hire item is not in your hire request.");
    return row.line;
  }

  return {
    cart,

    /** Adds a line; a depot named (the item page's) becomes the basket's depot, and the line is checked there. */
    async add(owner: BasketOwner, input: { hire_item_id: number; quantity: number; start_date: string; end_date: string; depot?: string }): Promise<HireCart> {
      const [item] = await db.select({ id: hireItems.id }).from(hireItems).where(eq(hireItems.id, input.hire_item_id)).limit(1);
      if (!item) throw new ValidationError({ hire_item_id: ["That hire item does not exist."] });
      checkHireDates(input.start_date, input.end_date, londonDate());
      const named = input.depot ? await depots.resolve({ slug: input.depot }) : null;
      const id = await ensureBasket(owner);
      const depot = named ?? (await depotOf((await basketRow(owner))?.branchId));
      // The same item for the same dates is one line: quantities add up.
      const same = await sameLine(id, item.id, input.start_date, input.end_date);
      const quantity = (same?.quantity ?? 0) + input.quantity;
      await checkAvailable(item.id, quantity, input.start_date, input.end_date, depot);
      if (named) await db.update(hireBaskets).set({ branchId: named.id }).where(eq(hireBaskets.id, id));
      if (same) await db.update(hireBasketLines).set({ quantity }).where(eq(hireBasketLines.id, same.id));
      else await db.insert(hireBasketLines).values({ basketId: id, hireItemId: item.id, quantity, startDate: input.start_date, endDate: input.end_date });
      await db.update(hireBaskets).set({ updatedAt: sql`now()` }).where(eq(hireBaskets.id, id));
      return cart(owner);
    },

    async update(owner: BasketOwner, lineId: number, input: { quantity: number; start_date?: string; end_date?: string }): Promise<HireCart> {
      const line = await lineOf(owner, lineId);
      const start = input.start_date ?? line.startDate;
      const end = input.end_date ?? line.endDate;
      checkHireDates(start, end, londonDate());
      await checkAvailable(line.hireItemId, input.quantity, start, end, await depotOf((await basketRow(owner))?.branchId));
      await db.update(hireBasketLines).set({ quantity: input.quantity, startDate: start, endDate: end }).where(eq(hireBasketLines.id, line.id));
      return cart(owner);
    },

    /** Chooses the depot the hire goes out from (422 on `depot` when it is not one). */
    async chooseDepot(owner: BasketOwner, slug: string): Promise<HireCart> {
      const depot = await depots.resolve({ slug });
      const id = await ensureBasket(owner);
      await db.update(hireBaskets).set({ branchId: depot.id, updatedAt: sql`now()` }).where(eq(hireBaskets.id, id));
      return cart(owner);
    },

    async remove(owner: BasketOwner, lineId: number): Promise<HireCart> {
      const line = await lineOf(owner, lineId);
      await db.delete(hireBasketLines).where(eq(hireBasketLines.id, line.id));
      return cart(owner);
    },

    async clear(owner: BasketOwner): Promise<HireCart> {
      const id = await basketId(owner);
      if (id) await db.delete(hireBasketLines).where(eq(hireBasketLines.basketId, id));
      return cart(owner);
    },

    /**
     * A guest who signs in keeps their hire basket: its lines join the user's,
     * quantities of the same item and dates added and capped at what is free.
     */
    async merge(guestHash: string, userId: number): Promise<void> {
      const guestId = await basketId({ guestHash });
      if (!guestId) return;
      const lines = await db.select().from(hireBasketLines).where(eq(hireBasketLines.basketId, guestId));
      if (lines.length) {
        const userBasket = await ensureBasket({ userId });
        for (const line of lines) {
          const same = await sameLine(userBasket, line.hireItemId, line.startDate, line.endDate);
          const free = await hire.freeUnits(line.hireItemId, line.startDate, line.endDate);
          const quantity = Math.min((same?.quantity ?? 0) + line.quantity, Math.max(free, same?.quantity ?? 0));
          if (same) await db.update(hireBasketLines).set({ quantity }).where(eq(hireBasketLines.id, same.id));
          else if (quantity > 0) await db.insert(hireBasketLines).values({ ...line, id: undefined, basketId: userBasket, quantity });
        }
      }
      await db.delete(hireBaskets).where(eq(hireBaskets.id, guestId));
    },
  };
}

export type HireBasketService = ReturnType<typeof createHireBasketService>;
