import { type ReactNode, useId } from "react";
import { Form, Link } from "react-router";
import { BranchFilter } from "../../components/admin/branch-filter.tsx";
import { PageHeader } from "../../components/admin/page-header.tsx";
import { BarChart, type ChartGeometry } from "../../components/bar-chart.tsx";
import { EmptyState } from "../../components/admin/empty-state.tsx";
import { MoneyCell } from "../../components/admin/cells.tsx";
import { DataTable } from "../../components/admin/table-or-cards.tsx";
import { LIST_OF, longDay, ordersHref, shortDay, sumPounds, tableDay, takingsBars, takingsSummary } from "../../lib/admin/dashboard.ts";
import { pageMeta } from "../../lib/meta.ts";
import { returnsHref } from "../../lib/admin/returns.ts";
import { formatPounds } from "../../lib/money.ts";
import type { FailingJob, PeriodFigures, TakingsDay } from "../../../server/modules/dashboard/service.ts";
import { can } from "../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/index";
import { staffScreen } from "../../lib/admin/staff-route.ts";

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, "Dashboard");

export async function loader({ context, request }: Route.LoaderArgs) {
  const { app, actor } = staffScreen(context, request, "dashboard.view");
  // Read per branch (issue 30): the member's own first when they work at one, or all.
  const choices = (await app.services.branches.list()).data.map((b) => ({ id: b.id, name: b.name }));
  const asked = new URL(request.url).searchParams.get("branch");
  const chosen = asked === "all" ? undefined : Number(asked ?? actor.branchIds?.[0] ?? Number.NaN);
  const branchId = choices.some((b) => b.id === chosen) ? chosen : undefined;
  const figures = await app.services.dashboard.figures(actor, { branchId });
  // Takings by day are money: only for a role with orders.prices (the service checks it again).
  const takings = can(actor.role, "orders.prices") ? await app.services.dashboard.takings(actor) : null;
  // Judged here, at the request's moment, not while rendering (which must give the same page in the browser).
  const lastBackup = figures.jobs?.last_backup_at;
  const backupOverdue = lastBackup === null || (lastBackup !== undefined && Date.now() - new Date(lastBackup).getTime() > BACKUP_OVERDUE_MS);
  return { firstName: actor.name.split(" ")[0] ?? actor.name, figures, takings, backupOverdue, branch: { choices: choices.length > 1 ? choices : [], chosen: branchId ?? null } };
}

/** Two figures a row on a phone, as many as fit beside each other on wider screens. */
const grid = "grid grid-cols-2 gap-3 sm:gap-4 md:grid-cols-[repeat(auto-fill,minmax(12rem,1fr))]";
const card = "min-w-0 rounded-lg border border-stone-200 bg-white p-3 sm:p-4";
const tile = "block rounded-md px-3 py-2";
const linked = `${tile} bg-stone-50 hover:bg-brand-50 focus-visible:bg-brand-50`;

/** A figure: the number with what it counts, a link to the list behind it when there is one. */
function Figure({ value, label, href, children }: { value: ReactNode; label: ReactNode; href?: string | null; children?: ReactNode }) {
  const body = (
    <>
      <span className="block text-2xl font-bold tabular-nums text-stone-900 [overflow-wrap:anywhere] sm:text-3xl">{value}</span>
      <span className="block text-sm font-semibold text-stone-700">{label}</span>
    </>
  );
  return (
    // A column whose tile stretches, so figures side by side keep their notes on one line.
    <div className="flex min-w-0 flex-col">
      {href ? (
        <Link to={href} className={`${linked} flex-1`}>
          {body}
        </Link>
      ) : (
        <div className={`${tile} flex-1 bg-stone-50`}>{body}</div>
      )}
      {children ? <div className="mt-1 px-3 text-sm text-stone-600">{children}</div> : null}
    </div>
  );
}

/** A card of one figure, titled. */
function FigureCard({ title, ...figure }: { title: string } & Parameters<typeof Figure>[0]) {
  return (
    <Card title={title}>
      <Figure {...figure} />
    </Card>
  );
}

function Card({ title, note, children }: { title: string; note?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={card}>
      <h3 id={id} className="mb-3 font-bold">
        {title}
      </h3>
      {children}
      {note ? <p className="mt-3 text-sm text-stone-600">{note}</p> : null}
    </section>
  );
}

const word = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : many);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${word(n, one, many)}`;
/** Read before each figure by a screen reader; on screen the card's heading says it. */
const Hidden = ({ children }: { children: ReactNode }) => <span className="sr-only">{children}</span>;

/** Today and the last 7 days side by side, for one measure. */
function Periods({ today, week }: { today: ReactNode; week: ReactNode }) {
  return (
    <div className="grid grid-cols-2 gap-2">
      {today}
      {week}
    </div>
  );
}

const Range = ({ text }: { text: string }) => <span className="block font-normal text-stone-600">{text}</span>;

function Cancelled({ n, href }: { n: number; href: string }) {
  if (n === 0) return <>None cancelled</>;
  return (
    <Link to={href} className="link">
      {n} cancelled
    </Link>
  );
}

// The chart's drawing units: a wide one for tablets and desktops, a narrow one for phones, so the labels stay body-sized on both.
const WIDE: ChartGeometry = { width: 720, height: 240, fontSize: 13, plot: { left: 52, right: 20, top: 12, bottom: 28 }, maxBar: 18 };
const NARROW: ChartGeometry = { width: 360, height: 240, fontSize: 13, plot: { left: 46, right: 18, top: 10, bottom: 28 }, maxBar: 10 };

function TakingsChart({ days }: { days: TakingsDay[] }) {
  const title = `Takings inc VAT by day, last ${days.length} days`;
  const summary = takingsSummary(days);
  const bars = takingsBars(days);
  const today = days.at(-1)?.day;
  return (
    <figure className="grid grid-cols-1 gap-3" data-testid="takings-chart">
      {/* One drawing shows at a time (display: none hides the other from screen readers too). */}
      <BarChart bars={bars} title={title} description={summary} geometry={WIDE} className="hidden h-auto w-full max-w-4xl sm:block" labelTicks />
      <BarChart bars={bars} title={title} description={summary} geometry={NARROW} className="h-auto w-full sm:hidden" labelTicks />
      <figcaption className="text-sm text-stone-700">
        {summary} <span className="whitespace-nowrap">Today&rsquo;s bar is amber.</span>
      </figcaption>
      <details className="rounded-md border border-stone-200 bg-stone-50 px-3 py-2 sm:px-4">
        <summary className="cursor-pointer py-1 font-semibold">Show as a table</summary>
        <div className="mt-2">
          <DataTable
            caption={`Orders placed and takings inc and ex VAT by day, last ${days.length} days; each day links to its orders`}
            testId="takings-table"
            rows={days}
            rowKey={(d) => d.day}
            rowProps={(d) => ({ className: `max-lg:bg-white ${d.day === today ? "font-semibold" : ""}` })}
            columns={[
              {
                label: "Day",
                head: true,
                cellClassName: "whitespace-nowrap font-normal",
                cell: (d) => (
                  <span>
                    <Link to={ordersHref({ from: d.day, to: d.day })} className="link">
                      {tableDay(d.day)}
                    </Link>
                    {d.day === today ? <span className="block text-xs font-semibold">today</span> : null}
                  </span>
                ),
              },
              { label: "Orders", numeric: true, cellClassName: "tabular-nums", cell: (d) => d.orders },
              { label: "Inc VAT", numeric: true, cell: (d) => <MoneyCell pounds={d.inc_vat} /> },
              { label: "Ex VAT", numeric: true, cell: (d) => <MoneyCell pounds={d.ex_vat} /> },
            ]}
            totals={{
              Day: `${days.length} days`,
              Orders: days.reduce((s, d) => s + d.orders, 0),
              "Inc VAT": <MoneyCell pounds={sumPounds(days.map((d) => d.inc_vat))} />,
              "Ex VAT": <MoneyCell pounds={sumPounds(days.map((d) => d.ex_vat))} />,
            }}
          />
        </div>
      </details>
    </figure>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="mb-8">
      <h2 id={id} className="mb-3 text-lg font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const londonTime = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });

/** A nightly backup more than a day and a half old has missed a night. */
const BACKUP_OVERDUE_MS = 36 * 60 * 60 * 1000;

/** When the newest backup was taken (ADR 0055), red when there is none or it has missed a night. */
function LastBackup({ at, overdue }: { at: string | null; overdue: boolean }) {
  return (
    <p className={`${card} mb-3 text-sm ${overdue ? "border-red-300 text-red-800" : "text-stone-700"}`}>
      {at === null ? "No backup has been taken yet." : <>The newest backup was taken <time dateTime={at}>{londonTime.format(new Date(at))}</time>.</>}{" "}
      <Link to="/admin/backups" className="link">
        Backups
      </Link>
    </p>
  );
}

/** Scheduled jobs whose retries ran out in the last 24 hours (ADR 0038): for whoever keeps the shop's settings. */
function BackgroundJobs({ failing, lastBackupAt, backupOverdue }: { failing: FailingJob[]; lastBackupAt: string | null | undefined; backupOverdue: boolean }) {
  return (
    <Section title="Background jobs">
      {lastBackupAt !== undefined ? <LastBackup at={lastBackupAt} overdue={backupOverdue} /> : null}
      {failing.length === 0 ? (
        <p className={`${card} text-sm text-stone-700`}>No scheduled job has failed in the last 24 hours.</p>
      ) : (
        <div className={`${card} border-red-300`}>
          <p className="mb-3 text-sm text-stone-700">
            {plural(failing.length, "job")} failed in the last 24 hours after every retry. The shop&rsquo;s log has each failure in full; docs/operations.md lists what each job does.
          </p>
          <ul className="divide-y divide-stone-200">
            {failing.map((job) => (
              <li key={job.name} className="py-2">
                <span className="font-mono font-semibold text-red-800">{job.name}</span>{" "}
                <span className="text-sm text-stone-700">
                  failed {plural(job.failures, "time")}, last at <time dateTime={job.last_failed_at}>{londonTime.format(new Date(job.last_failed_at))}</time>
                </span>
                <span className="block text-sm text-stone-600 [overflow-wrap:anywhere]">{job.last_error}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Section>
  );
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { figures: f, takings, firstName, branch, backupOverdue } = loaderData;
  const today = { from: f.today, to: f.today };
  const week = { from: f.week_from, to: f.today };
  const range = `${shortDay(f.week_from)} to ${shortDay(f.today)}`;
  const money = (p: PeriodFigures) => p.takings_inc_vat !== undefined;
  const elsewhere = f.hire || f.trade || f.invoices || f.stock;
  // Named for what this role sees of it: "Hire today", "Trade", "Stock", "Hire, trade and stock".
  const areas = [f.hire ? "hire" : null, f.trade || f.invoices ? "trade" : null, f.stock ? "stock" : null].filter((a) => a !== null);
  const named = areas.length > 1 ? `${areas.slice(0, -1).join(", ")} and ${areas.at(-1)}` : areas.join("");
  const elsewhereTitle = areas.length === 1 && f.hire ? "Hire today" : named.charAt(0).toUpperCase() + named.slice(1);

  return (
    <>
      <PageHeader title="Dashboard" intro={`Hello, ${firstName}. Today is ${longDay(f.today)}; the figures count London days.`} />
      {branch.choices.length ? (
        <Form method="get" className="mb-4 flex flex-wrap items-end gap-2">
          <BranchFilter branches={branch.choices} chosen={branch.chosen} label="Figures for" />
          <button type="submit" className="btn-secondary min-h-10">
            Show
          </button>
          {branch.chosen !== null ? <p className="w-full text-sm text-stone-600">Orders collected at or sent from this branch, and its own stock. Takings by day are the whole shop's.</p> : null}
        </Form>
      ) : null}

      {f.sales && !f.sales.has_orders ? (
        <div className="mb-8">
          <EmptyState title="No orders yet">Orders placed on the shop show here: today&rsquo;s and the last 7 days&rsquo; orders and takings, the orders waiting on the team, and a chart of the last 30 days&rsquo; takings.</EmptyState>
        </div>
      ) : null}

      {f.sales && f.sales.has_orders ? (
        <Section title={money(f.sales.today) ? "Orders and takings" : "Orders"}>
          <div className={`grid gap-4 ${money(f.sales.today) ? "lg:grid-cols-2" : "lg:max-w-2xl"}`}>
            <Card title="Orders placed">
              <Periods
                today={
                  <Figure value={f.sales.today.orders} label={<><Hidden>Orders placed </Hidden>today <Range text={shortDay(f.today)} /></>} href={ordersHref(today)}>
                    <Cancelled n={f.sales.today.cancelled} href={ordersHref({ status: "cancelled", ...today })} />
                  </Figure>
                }
                week={
                  <Figure value={f.sales.last_7_days.orders} label={<><Hidden>Orders placed in the </Hidden>last 7 days <Range text={range} /></>} href={ordersHref(week)}>
                    <Cancelled n={f.sales.last_7_days.cancelled} href={ordersHref({ status: "cancelled", ...week })} />
                  </Figure>
                }
              />
            </Card>
            {money(f.sales.today) ? (
              <Card title="Takings" note="Orders not cancelled. Ex VAT is goods ex VAT plus delivery as charged.">
                <Periods
                    today={
                    <Figure value={formatPounds(f.sales.today.takings_inc_vat ?? 0)} label={<><Hidden>Takings </Hidden>today, inc VAT <Range text={shortDay(f.today)} /></>} href={ordersHref(today)}>
                      {formatPounds(f.sales.today.takings_ex_vat ?? 0)} ex VAT
                    </Figure>
                  }
                  week={
                    <Figure value={formatPounds(f.sales.last_7_days.takings_inc_vat ?? 0)} label={<><Hidden>Takings in the </Hidden>last 7 days, inc VAT <Range text={range} /></>} href={ordersHref(week)}>
                      {formatPounds(f.sales.last_7_days.takings_ex_vat ?? 0)} ex VAT
                    </Figure>
                  }
                />
              </Card>
            ) : null}
          </div>
        </Section>
      ) : null}

      {f.queues && f.sales?.has_orders ? (
        <Section title="Orders waiting, now">
          <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
            <FigureCard title="Awaiting payment" value={f.queues.awaiting_payment} label={word(f.queues.awaiting_payment, "order")} href={ordersHref({ status: "awaiting_payment" })}>
              Bank transfers not yet in; pay on collection orders not yet started.
            </FigureCard>
            <FigureCard title="To pick" value={f.queues.to_pick} label={word(f.queues.to_pick, "order")}>
              <Link to={ordersHref({ status: "paid" })} className="link">
                {f.queues.paid} paid, not started
              </Link>
              {" · "}
              <Link to={ordersHref({ status: "processing" })} className="link">
                {f.queues.processing} processing
              </Link>
            </FigureCard>
            <FigureCard title="To dispatch" value={f.queues.to_dispatch} label={word(f.queues.to_dispatch, "order")} href={ordersHref({ status: "processing", fulfilment: "delivery" })}>
              Processing, for delivery.
            </FigureCard>
            <FigureCard title="Ready for collection" value={f.queues.ready_for_collection} label={word(f.queues.ready_for_collection, "order")} href={ordersHref({ status: "ready_for_collection" })}>
              Waiting for the customer.
            </FigureCard>
          </div>
        </Section>
      ) : null}

      {f.returns ? (
        <Section title="Returns">
          <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
            <FigureCard title="Returns to approve" value={f.returns.to_approve} label={word(f.returns.to_approve, "return")} href={returnsHref({ status: "requested" })}>
              Asked for, waiting for a decision.
            </FigureCard>
            <FigureCard title="Returns overdue for a refund" value={f.returns.overdue_for_refund} label={word(f.returns.overdue_for_refund, "return")} href={returnsHref({ status: "received", overdue: true })}>
              Received more than 14 days ago and not refunded: the law gives 14 days.
            </FigureCard>
          </div>
        </Section>
      ) : null}

      {elsewhere ? (
        <Section title={elsewhereTitle}>
          <div className={grid}>
            {f.hire ? (
              <>
                <FigureCard title="Hire going out today" value={f.hire.going_out.requests} label={word(f.hire.going_out.requests, "confirmed hire")} href={LIST_OF.hire}>
                  {plural(f.hire.going_out.units, "unit")} to hand over
                </FigureCard>
                <FigureCard title="Hire coming back today" value={f.hire.coming_back.requests} label={word(f.hire.coming_back.requests, "confirmed hire")} href={LIST_OF.hire}>
                  {plural(f.hire.coming_back.units, "unit")} due back
                </FigureCard>
              </>
            ) : null}
            {f.trade ? (
              <FigureCard title="Trade applications" value={f.trade.applications_waiting} label="waiting for a decision" href={LIST_OF.tradeApplications} />
            ) : null}
            {f.invoices ? (
              <FigureCard title="Overdue trade invoices" value={f.invoices.overdue} label="unpaid past the due date" href={LIST_OF.overdueInvoices}>
                {formatPounds(f.invoices.overdue_total)} in all
              </FigureCard>
            ) : null}
            {f.stock ? (
              <FigureCard title="Products to reorder" value={f.stock.at_or_below_reorder_level} label={`${f.stock.at_or_below_reorder_level === 1 ? "product" : "products"} at or below the reorder level`} href={LIST_OF.lowStock}>
                Each product&rsquo;s own level (5 unless set).
              </FigureCard>
            ) : null}
          </div>
        </Section>
      ) : null}

      {f.jobs ? <BackgroundJobs failing={f.jobs.failing} lastBackupAt={f.jobs.last_backup_at} backupOverdue={backupOverdue} /> : null}

      {takings && f.sales?.has_orders ? (
        <Section title="Takings, last 30 days">
          <div className={card}>
            <p className="mb-3 text-sm text-stone-600">Inc VAT, by the London day each order was placed; cancelled orders take nothing.</p>
            <TakingsChart days={takings} />
          </div>
        </Section>
      ) : null}
    </>
  );
}
