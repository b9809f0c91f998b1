import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { staffApi } from "../staff/admin-api.ts";
import { can } from "../staff/permissions.ts";
import { type DashboardService, TAKINGS_DAYS, TAKINGS_DAYS_MAX } from "./service.ts";
import { storeNothing } from "../../lib/no-store.ts";

const count = z.number().int();
const period = z.object({
  orders: count.describe("Every order placed in the period, cancelled ones too"),
  cancelled: count,
  takings_inc_vat: z.number().optional().describe("Pounds, orders not cancelled; only with orders.prices"),
  takings_ex_vat: z.number().optional().describe("Pounds: goods ex VAT plus delivery as charged; only with orders.prices"),
});
const day = z.string().describe("A London day, YYYY-MM-DD");

const dashboard = z.object({
  today: day,
  week_from: day.describe("The first of the last 7 London days (today and the 6 before)"),
  sales: z.object({ today: period, last_7_days: period, has_orders: z.boolean().describe("Whether the shop has any order at all") }).optional().describe("Only with orders.view"),
  queues: z
    .object({ awaiting_payment: count, paid: count, processing: count, to_pick: count.describe("paid + processing"), to_dispatch: count.describe("processing, for delivery"), ready_for_collection: count })
    .optional()
    .describe("Orders in each state now, whenever placed; only with orders.view"),
  hire: z
    .object({ going_out: z.object({ requests: count, units: count }), coming_back: z.object({ requests: count, units: count }) })
    .optional()
    .describe("Confirmed hire requests starting or returning today; only with hire.desk"),
  trade: z.object({ applications_waiting: count }).optional().describe("Only with trade.manage"),
  invoices: z.object({ overdue: count, overdue_total: z.number().describe("Pounds") }).optional().describe("Unpaid trade invoices past their due date; only with invoices.manage"),
  stock: z.object({ at_or_below_reorder_level: count, reorder_level: count }).optional().describe("Only with stock.count or catalogue.manage"),
  returns: z
    .object({ to_approve: count.describe("Returns requested, waiting for a decision"), overdue_for_refund: count.describe("Returns received more than 14 days ago and not refunded") })
    .optional()
    .describe("Only with returns.view"),
  jobs: z
    .object({
      failing: z.array(
        z.object({
          name: z.string().describe("The scheduled job, as the schedule in docs/operations.md names it"),
          failures: count.describe("Runs that failed with their retries spent, in the last 24 hours"),
          last_failed_at: z.string().describe("ISO 8601"),
          last_error: z.string().describe("The latest failure's error message"),
        }),
      ),
      last_backup_at: z.string().nullable().optional().describe("When the newest complete backup was taken (ISO 8601), null when there is none"),
    })
    .optional()
    .describe("Background jobs failing in the last 24 hours, the most recent first; only with settings.manage"),
  takings: z
    .array(z.object({ day, orders: count, inc_vat: z.number(), ex_vat: z.number() }))
    .optional()
    .describe("One row per London day, oldest first, ending today, empty days included; pounds of orders not cancelled; only with orders.prices"),
});

/** The dashboard's API (issue 18): the same service as the /admin screen, which checks each permission. */
export async function dashboardRoutes(app: FastifyInstance, options: { dashboard: DashboardService }): Promise<void> {
  const api = staffApi(app, { tags: ["admin: dashboard"] });
  const { dashboard: service } = options;

  storeNothing(app);

  api.get(
    "/admin/dashboard",
    {
      summary:
        "Today's and the last 7 London days' orders and takings (inc and ex VAT), the orders awaiting payment, to pick, to dispatch and ready for collection, hire going out and coming back today, trade applications waiting, overdue trade invoices, products at or below the reorder level, background jobs failing in the last 24 hours, and takings by day (`days`, default 30). Each block only for a role that may see it: no money without orders.prices",
      querystring: z.object({
        days: z.coerce.number().int().min(1).max(TAKINGS_DAYS_MAX).optional(),
        branch_id: z.coerce.number().int().positive().optional().describe("Read per branch: its orders (collected there or sent from it) and its own stock below the reorder level"),
      }),
      response: { 200: dashboard },
    },
    async (actor, request) => {
      const figures = await service.figures(actor, { branchId: request.query.branch_id });
      if (!can(actor.role, "orders.prices")) return figures;
      return { ...figures, takings: await service.takings(actor, request.query.days ?? TAKINGS_DAYS) };
    },
  );
}
