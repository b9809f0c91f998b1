import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ValidationError } from "../../http-errors.ts";
import { basketEnvelope, readingOwner, writingOwner } from "../../plugins/basket-envelope.ts";
import { type BasketOwner, guestHashOf } from "../../plugins/guest.ts";
import { ukPostcode } from "../account/contract.ts";
import { emailField, nameField } from "../auth/contract.ts";
import type { HireBasketService, HireCart } from "./basket.ts";
import type { HireRequestService } from "./requests.ts";
import { dayNumber } from "./pricing.ts";
import { MY_BRANCH_COOKIE } from "../branches/routes.ts";
import type { DepotService } from "./depots/service.ts";
import { storeNothing } from "../../lib/no-store.ts";
import { signedIn } from "../auth/signed-in.ts";

const date = (label: string) => z.string({ error: `Choose the ${label}.` }).refine((v) => dayNumber(v) !== null, `Choose a valid ${label}.`);
const quantity = z.coerce
  .number({ error: "Enter a quantity." })
  .int("Enter a whole number.")
  .min(1, "The quantity must be at least 1.")
  .max(99, "The quantity must be at most 99.");
const depotSlug = z.string({ error: "Choose a hire depot." }).regex(/^[a-z0-9-]{1,80}$/, "Choose one of our hire depots.");
const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export interface HireBasketRouteOptions {
  basket: HireBasketService;
  enabled: boolean;
  secureCookies: boolean;
}

/**
 * The hire request basket (section 7): every answer is `{success, message, errors, cart}`,
 * failures included, so the page can always show the basket as it now stands.
 */
export async function hireBasketRoutes(app: FastifyInstance, options: HireBasketRouteOptions): Promise<void> {
  const { basket, enabled, secureCookies } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["hire basket"];

  const empty: HireCart = { items: [], depot: null, totals: { hire_cost: 0, deposit: 0, vat: 0, total: 0 }, itemCount: 0 };
  const answer = basketEnvelope(app, { enabled, empty, cartOf: basket.cart });
  const reading = readingOwner;
  const writing = (request: FastifyRequest, reply: FastifyReply) => writingOwner(request, reply, secureCookies);

  r.get("/hire-basket", { schema: { tags, summary: "Your hire request basket" } }, async (request, reply) => {
    const owner = reading(request);
    return answer(reply, owner, "", async () => (owner ? basket.cart(owner) : empty));
  });

  r.post(
    "/hire-basket",
    {
      schema: {
        tags,
        summary: "Adds a hire item for dates; the quantity must fit the units free",
        body: z.object({ hire_item_id: z.coerce.number().int().positive().max(2_147_483_647), quantity, start_date: date("start date"), end_date: date("return date"), depot: depotSlug.optional() }),
      },
    },
    async (request, reply) => {
      const owner = writing(request, reply);
      return answer(reply, owner, "Added to your hire request.", () => basket.add(owner, request.body));
    },
  );

  r.put(
    "/hire-basket/:id",
    {
      schema: {
        tags,
        summary: "Changes a line's quantity or dates",
        params: idParams,
        body: z.object({ quantity, start_date: date("start date").optional(), end_date: date("return date").optional() }),
      },
    },
    async (request, reply) => {
      const owner = writing(request, reply);
      return answer(reply, owner, "Hire request updated.", () => basket.update(owner, request.params.id, request.body));
    },
  );

  r.put(
    "/hire-basket/depot",
    { schema: { tags, summary: "Chooses the hire depot the hire goes out from (a depot's slug, from /api/hire-depots); 422 on `depot` when it is not one", body: z.object({ depot: depotSlug }) } },
    async (request, reply) => {
      const owner = writing(request, reply);
      return answer(reply, owner, "Depot chosen.", () => basket.chooseDepot(owner, request.body.depot));
    },
  );

  r.delete("/hire-basket/:id", { schema: { tags, summary: "Removes a line", params: idParams } }, async (request, reply) => {
    const owner = writing(request, reply);
    return answer(reply, owner, "Removed from your hire request.", () => basket.remove(owner, request.params.id));
  });

  r.delete("/hire-basket", { schema: { tags, summary: "Empties the hire basket" } }, async (request, reply) => {
    const owner = writing(request, reply);
    return answer(reply, owner, "Your hire request is empty.", () => basket.clear(owner));
  });
}

const text = (max: number) => z.string().trim().max(max).optional().default("");

export const hireRequestBody = z
  .object({
    name: nameField("name"),
    email: emailField,
    phone: z.string({ error: "Enter a phone number." }).trim().min(6, "Enter a phone number.").max(30, "The phone number is too long.").regex(/^[0-9+() -]+$/, "Enter a valid phone number."),
    company: text(120),
    fulfilment: z.enum(["delivery", "collection"], { error: "Choose delivery to a site or collection from the branch." }),
    address_line1: text(100),
    address_line2: text(100),
    town: text(60),
    postcode: z.union([z.literal(""), ukPostcode]).optional().default(""),
    notes: text(2000),
    depot: depotSlug.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.fulfilment !== "delivery") return;
    if (!b.address_line1) ctx.addIssue({ code: "custom", path: ["address_line1"], message: "Enter the site address." });
    if (!b.town) ctx.addIssue({ code: "custom", path: ["town"], message: "Enter the town or city." });
    if (!b.postcode) ctx.addIssue({ code: "custom", path: ["postcode"], message: "Enter the site postcode." });
  });

export async function hireRequestRoutes(app: FastifyInstance, options: { requests: HireRequestService; depots: DepotService; enabled: boolean }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["hire requests"];
  storeNothing(app, "private, no-store");

  r.post(
    "/hire-requests",
    {
      schema: { tags, summary: "Turns the hire basket into a hire request at a depot (`depot`, else the basket's, else my branch when a depot, else the default), holding units for 48 hours; a unit short at the depot is taken from another depot free from the day before (a transfer). Delivery is priced by the distance band from the depot to the site postcode and kept on the request; 422 on `postcode` beyond the last band", body: hireRequestBody },
      // Without the hire basket there is nothing to request, before any validation.
      onRequest: async (_request, reply) => {
        if (!options.enabled) return reply.code(404).send({ message: "Not Found" });
      },
    },
    async (request, reply) => {
      const owner: BasketOwner | null = request.user ? { userId: request.user.id } : guestHashOf(request) ? { guestHash: guestHashOf(request)! } : null;
      if (!owner) throw new ValidationError({ basket: ["Your hire request is empty."] });
      const mine = await options.depots.mine(request.user?.id ?? null, request.cookies[MY_BRANCH_COOKIE]);
      const made = await options.requests.create(owner, request.user?.id ?? null, request.body, mine);
      return reply.code(201).send({ success: true, message: `Thank you. Your hire request ${made.number} has been sent; we will confirm it shortly.`, number: made.number });
    },
  );

  r.get("/account/hire-requests", { schema: { tags, summary: "Your hire requests and their status" } }, async (request) => {
    return { data: await options.requests.listForUser(signedIn(request).id) };
  });
}
