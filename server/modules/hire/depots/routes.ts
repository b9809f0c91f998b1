import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { messageResponse, validationResponse } from "../../auth/contract.ts";
import { pounds } from "../../catalog/products/products.ts";
import { staffApi } from "../../staff/admin-api.ts";
import type { DepotService } from "./service.ts";
import type { UnitTransfers } from "./transfers.ts";
import { staffDoor } from "../../staff/door.ts";
import { storeNothing } from "../../../lib/no-store.ts";

const errors = { 401: messageResponse, 403: messageResponse, 404: messageResponse, 409: messageResponse, 422: validationResponse };
const unitParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const depotRef = z.object({ slug: z.string(), name: z.string() });

export const unitTransferBody = z.object({
  depot: z.string({ error: "Choose the depot the unit moves to." }).regex(/^[a-z0-9-]{1,80}$/, "Choose one of our hire depots."),
  request_number: z.string().regex(/^HR-\d{6,}$/, "Give a hire request's number, HR-000123.").optional(),
  reason: z.string().trim().max(500, "Keep the reason to 500 characters.").optional(),
});

export const deliveryBandsBody = z.object({
  bands: z
    .array(
      z.object({
        up_to_miles: z.coerce.number({ error: "Give each band's distance in whole miles." }).int("Give each band's distance in whole miles.").min(1, "A band reaches at least 1 mile.").max(1000, "A band reaches at most 1000 miles."),
        price: z.coerce.number({ error: "Give each band's price in pounds." }).min(0, "A price cannot be negative.").max(100_000, "A price can be at most £100,000.").multipleOf(0.01, "Give the price in pounds and pence."),
      }),
    )
    .max(20, "Set at most 20 bands."),
});

/** Hire depots in the back office (issue 30): moving a unit between depots (hire.desk) and the delivery bands (catalogue.manage). */
export async function hireDepotAdminRoutes(app: FastifyInstance, options: { depots: DepotService; transfers: UnitTransfers }): Promise<void> {
  const api = staffApi(app, { tags: ["admin: hire depots"], errors });
  storeNothing(app);

  api.post(
    "/admin/hire/units/:id/transfer",
    {
      config: staffDoor("hire.desk"),
      summary: "Moves a hire unit to another depot (`depot`, a slug), optionally for a hire request (`request_number`), with a `reason`: the unit's depot changes, a history row and the audit log record it. 422 when it is already there; 409 while it is out on hire. Needs hire.desk",
      params: unitParams,
      body: unitTransferBody,
      response: { 200: z.object({ unit_id: z.number(), asset_number: z.string(), from: depotRef, to: depotRef }) },
    },
    async (actor, request) => options.transfers.transfer(actor, request.params.id, request.body),
  );

  api.get(
    "/admin/hire/units/:id/transfers",
    { summary: "A hire unit's transfers between depots, newest first. Needs hire.desk", params: unitParams },
    async (actor, request) => ({ data: await options.transfers.history(actor, request.params.id) }),
  );

  const bandsJson = (list: { upToMiles: number; pricePence: number }[]) => ({ data: list.map((b) => ({ up_to_miles: b.upToMiles, price: pounds(b.pricePence) })) });

  api.get("/admin/hire/delivery-bands", { summary: "The delivery bands for hired equipment: up to `up_to_miles` from the depot for `price` (pounds ex VAT). Needs catalogue.view" }, async (actor) => bandsJson(await options.depots.bandsFor(actor)));

  api.put(
    "/admin/hire/delivery-bands",
    {
      config: staffDoor("catalogue.manage"),
      summary: "Replaces the delivery bands (none: delivery is not priced online). A longer band may not be cheaper than a shorter one; each distance once. Audited. Needs catalogue.manage",
      body: deliveryBandsBody,
      response: { 200: z.object({ data: z.array(z.object({ up_to_miles: z.number(), price: z.number() })) }) },
    },
    async (actor, request) => bandsJson(await options.depots.saveBands(actor, request.body.bands.map((b) => ({ upToMiles: b.up_to_miles, pricePence: Math.round(b.price * 100) })))),
  );
}
