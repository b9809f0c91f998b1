import type { Db } from "../../db/client.ts";
import type { Services } from "../../services.ts";
import { pruneExpiredTokens } from "../auth/tokens.ts";
import { NIGHTLY_RETRY, type NightlyBackup } from "../backups/nightly.ts";
import type { CatalogueCsv } from "../catalog/csv/jobs.ts";
import { londonDate } from "../hire/pricing.ts";
import { pruneStaffSessions } from "../staff/sessions.ts";
import type { JobContext, JobOptions, JobRunner, JobSchedule } from "./runner.ts";

/** What a scheduled job may use: the shop's services, the database, the catalogue's CSV imports, the nightly backup. */
export interface JobDeps {
  services: Services;
  db: Db;
  csv: CatalogueCsv;
  backups: NightlyBackup;
}

/**
 * One scheduled job (ADR 0038). `name` is its queue's name (lower-case,
 * digits, dots, hyphens); `schedule` is `{cron}` read in Europe/London or
 * `{everySeconds}`. `run` throws to fail: the runner retries it with backoff,
 * then records the failure for the dashboard and the log. It may run again
 * after a crash mid-way, so it must be safe to repeat.
 */
export interface ScheduledJob {
  name: string;
  /** One line for the schedule in docs/operations.md. */
  description: string;
  schedule: JobSchedule;
  run: (deps: JobDeps, context: JobContext) => Promise<unknown>;
  options?: JobOptions;
}

const TEN_MINUTES = 10 * 60;
const HOURLY = 60 * 60;

/**
 * Every scheduled job of the shop, in one list. To add one, append it here
 * (and a line to "Scheduled jobs" in docs/operations.md); e.g. the trade desk's
 *   { name: "trade.invoice-reminders", description: "…", schedule: { cron: "0 7 * * *" }, run: ({ services }) => services.… }
 */
export const SCHEDULED_JOBS: readonly ScheduledJob[] = [
  {
    name: "hire.lapse-holds",
    description: "Pending hire requests whose hold has run out become lapsed, and their units are freed.",
    schedule: { everySeconds: TEN_MINUTES },
    run: ({ services }) => services.hireRequests.lapseExpired(),
  },
  {
    name: "auth.prune-tokens",
    description: "Expired customer access tokens are deleted.",
    schedule: { everySeconds: TEN_MINUTES },
    run: ({ db }) => pruneExpiredTokens(db),
  },
  {
    name: "staff.prune-sessions",
    description: "Staff sessions past their expiry or idle limit are deleted.",
    schedule: { everySeconds: TEN_MINUTES },
    run: ({ db }) => pruneStaffSessions(db),
  },
  {
    name: "payments.sweep",
    description: "Card payment sessions still open well past their expiry are asked about at the gateway, so a lost webhook never leaves an order holding stock.",
    schedule: { everySeconds: TEN_MINUTES },
    run: ({ services }) => services.payments.sweep(),
  },
  {
    name: "orders.uncollected",
    description: "Click & collect orders ready and not collected: reminded halfway through their branch's hold (7 days unless the branch says), then cancelled back into stock and refunded.",
    schedule: { everySeconds: HOURLY },
    run: ({ services }) => services.uncollected.sweep(),
  },
  {
    name: "catalog.sweep-imports",
    description: "Uploaded CSV import files checked or applied more than a day ago are removed.",
    schedule: { everySeconds: HOURLY },
    run: ({ csv }) => csv.sweep(),
  },
  {
    name: "trade.invoice-reminders",
    description: "At 07:00 London: unpaid invoices are reminded on their due date and 7 and 14 days after (each stage once), then accounts with an overdue invoice go on hold.",
    schedule: { cron: "0 7 * * *" },
    run: ({ services }, { scheduledFor }) => services.tradeReminders.send(londonDate(scheduledFor ?? new Date())),
  },
  {
    name: "quotes.reminders-and-expiry",
    description: "At 07:30 London: sent quotes past their last day expire, and those ending within 3 days are reminded (once per sent version).",
    schedule: { cron: "30 7 * * *" },
    run: ({ services }, { scheduledFor }) => services.quoteSweep.run(londonDate(scheduledFor ?? new Date())),
  },
  {
    name: "trade.monthly-statements",
    description: "At 06:00 London, from the first working day of a month: last month's statement to each approved trade account with activity or a balance, once.",
    schedule: { cron: "0 6 * * *" },
    run: ({ services }, { scheduledFor }) => services.tradeStatements.sendMonthly(londonDate(scheduledFor ?? new Date())),
  },
  {
    name: "backups.nightly",
    description: "At 02:30 London: a backup of the whole shop into BACKUP_DIR, then all but the newest of each of the last 7 days and 4 weeks are deleted; when its third attempt fails, the owners are emailed.",
    schedule: { cron: "30 2 * * *" },
    run: ({ backups }, context) => backups.run(context),
    options: { retry: NIGHTLY_RETRY, timeoutSeconds: 60 * 60 },
  },
];

/** Puts each job of the list on the runner, its handler closed over the shop's services. */
export function scheduleJobs(runner: JobRunner, jobs: readonly ScheduledJob[], deps: JobDeps): void {
  for (const job of jobs) runner.schedule(job.name, job.schedule, (_data, context) => job.run(deps, context), job.options);
}
