import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { staffApi } from "../staff/admin-api.ts";
import { HIRE_REQUEST_STATUSES } from "./desk-labels.ts";
import { type HireDesk, hireRequestListQuery } from "./desk-overview.ts";
import { type HirePlanner, PLANNER_DAYS_MAX, plannerQuery } from "./planner.ts";
import { storeNothing } from "../../lib/no-store.ts";

const status = z.enum(HIRE_REQUEST_STATUSES).describe("pending → confirmed (shown Approved) | declined | lapsed; then out, off_hired, returned, completed");
const day = z.string().describe("YYYY-MM-DD, a London calendar day");

const bar = z.object({
  from: day.describe("The allocation's first day, YYYY-MM-DD, as stored: not clipped to the window, so it may be before `from`"),
  to: day.describe("The day the unit is free again, YYYY-MM-DD: exclusive, as the daterange `[start, return)`; not clipped, so it may be after the window"),
  kind: z.enum(["hold", "booking", "out", "service"]).describe("hold: a request waiting (lapses unless approved); booking: approved; out: handed over; service: cleaning or repair"),
  request_number: z.string().optional().describe("The hire request it serves (absent for service): its page is /admin/hire/requests/{number}"),
  note: z.string().optional().describe("Service only: why the unit is in service"),
});
const planner = z.object({
  from: day.describe("The window's first day"),
  to: day.describe("The day after the window (exclusive): `from` + `days`"),
  days: z.number().int(),
  today: day.describe("Today in London"),
  items: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      units: z.array(z.object({ id: z.number().int(), asset_number: z.string(), active: z.boolean().describe("A retired unit shows only while it has a bar in the window"), bars: z.array(bar) })),
    }),
  ),
  next_cursor: z.string().nullable().describe("The next page of hire items, or null"),
});

const overviewRequest = z.object({
  number: z.string(),
  status,
  name: z.string(),
  company: z.string(),
  fulfilment: z.string(),
  created_at: z.string(),
  hold_expires_at: z.string().describe("When a waiting request's holds lapse"),
  start_date: day,
  end_date: day,
  units: z.number().int(),
  items: z.string(),
});
const overviewUnit = z.object({
  number: z.string(),
  status,
  name: z.string(),
  phone: z.string(),
  item: z.string(),
  asset_number: z.string(),
  return_date: day.describe("The request line's return date"),
  off_hire_on: day.nullable().describe("The day the customer off-hired it (charging stopped), waiting to be collected; null while on hire"),
  days_overdue: z.number().int().describe("London days past the return date; 0 when due back today"),
});
const overview = z.object({
  today: day,
  waiting: z.object({ total: z.number().int(), requests: z.array(overviewRequest) }).describe("Pending requests, oldest first"),
  going_out: z.object({ total: z.number().int(), requests: z.array(overviewRequest) }).describe("Approved requests with a line starting today; `units` counts those lines' units"),
  due_back: z.object({ total: z.number().int(), units: z.array(overviewUnit) }).describe("Units out on hire whose return date is today"),
  overdue: z.object({ total: z.number().int(), units: z.array(overviewUnit) }).describe("Units out on hire past their return date, not returned; longest overdue first"),
});
const requestSummary = z.object({
  number: z.string(),
  status,
  name: z.string(),
  email: z.string(),
  company: z.string(),
  fulfilment: z.string(),
  created_at: z.string(),
  hold_expires_at: z.string(),
  start_date: day.nullable(),
  end_date: day.nullable(),
  units: z.number().int(),
  items: z.string(),
  hire_cost: z.number().describe("Pounds ex VAT"),
  vat: z.number(),
  deposit: z.number(),
});

/** The hire desk's reading API (issue 21): the planner, the overview and the list of requests; the service checks hire.desk. */
export async function hireDeskRoutes(app: FastifyInstance, options: { planner: HirePlanner; desk: HireDesk }): Promise<void> {
  const api = staffApi(app, { tags: ["admin: hire desk"] });

  storeNothing(app);

  api.get(
    "/admin/hire/planner",
    {
      summary: `The planner: hire items by name (a keyset page of \`limit\`, 50 by default, \`next_cursor\`; or one \`item\`, or names matching \`q\`), each with its units by asset number (active ones, and retired ones that have a bar) and their live holds, bookings, time out and service in the window [\`from\`, \`from\` + \`days\`), \`days\` 1 to ${PLANNER_DAYS_MAX} (14 by default). Bars are not clipped to the window: \`from\` and \`to\` are the allocation's own, \`to\` exclusive (the return date). A hold past its expiry is not drawn. 422 names a bad \`from\` or \`days\`. Needs hire.desk`,
      querystring: plannerQuery,
      response: { 200: planner },
    },
    async (actor, request) => options.planner.planner(actor, request.query),
  );

  api.get(
    "/admin/hire/overview",
    {
      summary: "What the hire desk does today (London): requests waiting, going out today, due back today, overdue; each with its request's number (its page: /admin/hire/requests/{number}); `depot` (a slug) keeps one depot's. Each bucket lists at most 50, `total` counts them all. Needs hire.desk",
      querystring: z.object({ depot: z.string().regex(/^[a-z0-9-]{1,80}$/, "Choose one of our hire depots (depot).").optional() }),
      response: { 200: overview },
    },
    async (actor, request) => options.desk.overview(actor, request.query.depot || undefined),
  );

  api.get(
    "/admin/hire/requests",
    {
      summary: "Hire requests, newest first, a keyset page at a time (`next_cursor`): filter by `status`; search `q` by request number (whole, its start, or its digits), or words of the name, email or company. Needs hire.desk",
      querystring: hireRequestListQuery,
      response: { 200: z.object({ data: z.array(requestSummary), next_cursor: z.string().nullable() }) },
    },
    async (actor, request) => options.desk.requests(actor, request.query),
  );
}
