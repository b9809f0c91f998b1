import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { checkHireDates } from "./dates.ts";
import { addDays, dayNumber } from "./pricing.ts";
import { type HireService, MAX_AVAILABILITY_DAYS, MAX_HIRE_PER_PAGE } from "./service.ts";
import { MY_BRANCH_COOKIE } from "../branches/routes.ts";
import { type DepotService, deliveryJson } from "./depots/service.ts";


const calendarDate = (label: string) =>
  z
    .string({ error: `Choose the ${label}.` })
    .refine((v) => dayNumber(v) !== null, `The ${label} must be a date (YYYY-MM-DD).`);

const slugParams = z.object({ slug: z.string().regex(/^[a-z0-9-]{1,200}$/, "Unknown hire item.") });
const depotQuery = z
  .string()
  .regex(/^[a-z0-9-]{1,80}$/, "Choose one of our hire depots.")
  .optional()
  .describe("A hire depot's slug; by default my branch when it is a depot, else the default depot");

export async function hireRoutes(app: FastifyInstance, options: { hire: HireService; depots: DepotService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { hire, depots } = options;
  const tags = ["hire"];

  /** The depot asked for, else my branch (account, then cookie) when it is a depot, else the default depot. */
  const depotOf = async (request: FastifyRequest, slug: string | undefined) =>
    depots.resolve({ slug, mine: slug ? null : await depots.mine(request.user?.id ?? null, request.cookies[MY_BRANCH_COOKIE]) });
  const depotSummary = (d: { slug: string; name: string; town: string }) => ({ slug: d.slug, name: d.name, town: d.town });

  r.get("/hire-depots", { schema: { tags, summary: "The hire depots (branches offering hire), the default first: where hire units are based and go out from" } }, async () => ({
    data: (await depots.list()).map((d) => ({ ...depotSummary(d), postcode: d.postcode, is_default: d.is_default })),
  }));

  r.get(
    "/hire-depots/:slug/delivery",
    {
      schema: {
        tags,
        summary: "The price of delivering hired equipment to a site and collecting it, by the merchant's distance bands from the depot (pounds ex VAT, its VAT and total); `data: null` when delivery is not priced online. 422 on `postcode` when it cannot be placed or is beyond the last band",
        params: z.object({ slug: z.string().regex(/^[a-z0-9-]{1,80}$/, "Choose one of our hire depots.") }),
        querystring: z.object({ postcode: z.string({ error: "Enter the site postcode." }).trim().min(1, "Enter the site postcode.").max(10, "Enter the site's full postcode, such as LS11 5PS.") }),
      },
    },
    async (request) => {
      const depot = await depots.resolve({ slug: request.params.slug });
      const price = await depots.deliveryPrice(depot, request.query.postcode);
      return { data: price ? deliveryJson(price) : null, depot: depotSummary(depot) };
    },
  );

  r.get(
    "/hire",
    {
      schema: {
        tags,
        summary: "Hire items, with hire-category and search filters and pagination",
        querystring: z.object({
          category: z.string().regex(/^[a-z0-9-]{1,100}$/, "Unknown hire category.").optional(),
          q: z.string().trim().max(200).optional(),
          page: z.coerce.number().int().min(1).max(500).optional(),
          per_page: z.coerce.number().int().min(1).max(MAX_HIRE_PER_PAGE).optional(),
        }),
      },
    },
    async (request) => hire.list({ ...request.query, perPage: request.query.per_page }),
  );

  r.get("/hire/:slug", { schema: { tags, summary: "A hire item with rates (pounds ex VAT), deposit and units; an old slug of a renamed item answers 301 to its new one", params: slugParams } }, async (request, reply) => {
    const item = await hire.bySlug(request.params.slug);
    if (!item) {
      const moved = await hire.movedSlug(request.params.slug);
      if (moved) return reply.code(301).header("location", `/api/hire/${moved}`).send({ message: "This hire item has moved.", slug: moved });
      throw new HttpError(404, "Hire item not found.");
    }
    return { data: item };
  });

  r.get(
    "/hire/:slug/availability",
    {
      schema: {
        tags,
        summary: `Units free on each day from \`from\` to \`to\` (at most ${MAX_AVAILABILITY_DAYS} days; default the next 4 weeks)`,
        params: slugParams,
        querystring: z.object({ from: calendarDate("first date").optional(), to: calendarDate("last date").optional(), depot: depotQuery }),
      },
    },
    async (request) => {
      const item = await hire.bySlug(request.params.slug);
      if (!item) throw new HttpError(404, "Hire item not found.");
      const from = request.query.from ?? hire.today();
      const to = request.query.to ?? addDays(from, 27);
      const span = dayNumber(to)! - dayNumber(from)!;
      if (span < 0) throw new ValidationError({ to: ["The last date must not be before the first."] });
      if (span >= MAX_AVAILABILITY_DAYS) throw new ValidationError({ to: [`Ask for at most ${MAX_AVAILABILITY_DAYS} days at a time.`] });
      const depot = await depotOf(request, request.query.depot);
      return { data: await hire.availability(item.id, from, to, depot.id), depot: depotSummary(depot) };
    },
  );

  r.get(
    "/hire/:slug/quote",
    {
      schema: {
        tags,
        summary: "The price of a hire: hire cost, VAT, deposit and total in pounds; `available`: units free at the depot for the dates; `by_transfer`: units at other depots free from the day before (moved to the depot for the hire)",
        params: slugParams,
        querystring: z.object({
          start_date: calendarDate("start date"),
          end_date: calendarDate("return date"),
          quantity: z.coerce.number().int("Choose a whole number of units.").min(1, "Choose at least 1.").max(99).default(1),
          depot: depotQuery,
        }),
      },
    },
    async (request) => {
      const item = await hire.bySlug(request.params.slug);
      if (!item) throw new HttpError(404, "Hire item not found.");
      const { start_date: start, end_date: end, quantity } = request.query;
      checkHireDates(start, end, hire.today());
      const depot = await depotOf(request, request.query.depot);
      const free = await hire.freeUnits(item.id, start, end, depot.id);
      const byTransfer = free >= quantity ? 0 : await hire.byTransfer(item.id, start, end, depot.id);
      return { data: { ...hire.quote(item, quantity, start, end), available: free, by_transfer: byTransfer, quantity, depot: depotSummary(depot) } };
    },
  );
}
