// Staff commands, through the same services as the back office, each written to
// the audit log as the staff member `system`:
//   npm run shop -- hire:confirm HR-000123   (holds become bookings; the customer is emailed)
//   npm run shop -- hire:decline HR-000123   (units freed; the customer is emailed)
//   npm run shop -- hire:complete HR-000123  (an approved hire that never went through the hire desk, units back in the fleet; or a returned one, settled as arranged; the customer is emailed)
//   npm run shop -- order:status TC-000123 dispatched --carrier "Royal Mail" --tracking AB123456789GB ["note"]
//        (the orders desk's state machine; cancelled needs the reason as the note; recorded in the history, audited as `system`, emailed where it matters)
//   npm run shop -- trade:approve EMAIL --credit-limit 5000 --terms 30 --discount 10  (the owner is emailed)
//   npm run shop -- trade:decline EMAIL | trade:suspend EMAIL  (the owner is emailed)
//   npm run shop -- trade:po-required EMAIL on|off  (orders on account need a PO reference, or not)
//   npm run shop -- staff:create EMAIL --role ROLE [--name "Full Name"]  (prints a one-time set-up link, valid 24 hours)
//   npm run shop -- invoice:paid INV-000123  (the money arrived: paid, balance lowered, receipt to the accounts email)
//   npm run shop -- products:import FILE.csv [--dry-run] [--valid-only]  (the catalogue CSV, all or nothing; exit 1 when a row is refused)
import { parseArgs } from "node:util";
import pino from "pino";
import { scriptConfig } from "../server/bootstrap.ts";
import { openDatabase } from "../server/db/client.ts";
import { HttpError, ValidationError } from "../server/http-errors.ts";
import { createServices } from "../server/services.ts";
import { createReadStream, existsSync, statSync } from "node:fs";
import path from "node:path";
import { type ImportReport, runImport } from "../server/modules/catalog/csv/import.ts";
import { IMPORT_MAX_BYTES } from "../server/modules/catalog/csv/read.ts";
import { progressBar } from "./lib/progress-bar.ts";
import type { TradeTerms } from "../server/modules/trade/service.ts";
import type { OrderStatus } from "../server/modules/orders/schema.ts";

const HIRE = { "hire:confirm": "confirm", "hire:decline": "decline", "hire:complete": "complete" } as const;
const TRADE = { "trade:approve": "approve", "trade:decline": "decline", "trade:suspend": "suspend" } as const;
const [command, argument] = process.argv.slice(2);

function usage(): never {
  console.error("Usage: npm run shop -- hire:confirm|hire:decline|hire:complete NUMBER");
  console.error("       npm run shop -- order:status ORDER_NUMBER STATUS [--carrier CARRIER --tracking NUMBER] [NOTE]");
  console.error("       npm run shop -- trade:approve EMAIL --credit-limit POUNDS --terms DAYS --discount PERCENT");
  console.error("       npm run shop -- trade:decline|trade:suspend EMAIL");
  console.error("       npm run shop -- trade:po-required EMAIL on|off");
  console.error("       npm run shop -- invoice:paid INVOICE_NUMBER");
  console.error("       npm run shop -- staff:create EMAIL --role owner|manager|sales|warehouse|hire|accounts [--name NAME]");
  console.error("       npm run shop -- products:import FILE.csv [--dry-run] [--valid-only]");
  process.exit(2);
}

const isOrder = command === "order:status";
const isTrade = !!command && command in TRADE;
const isPoRequired = command === "trade:po-required";
const isInvoicePaid = command === "invoice:paid";
const isStaffCreate = command === "staff:create";
const isProductsImport = command === "products:import";
const onOff = process.argv[4]?.toLowerCase();
if (!command || !(command in HIRE || isOrder || isTrade || isPoRequired || isInvoicePaid || isStaffCreate || isProductsImport) || !argument || (isOrder && !process.argv[4])) usage();
if (isPoRequired && onOff !== "on" && onOff !== "off") usage();

/** The approval's terms from `--credit-limit 5000 --terms 30 --discount 10`; all three are required. */
function tradeTerms(): TradeTerms | undefined {
  if (command !== "trade:approve") return undefined;
  const { values } = parseArgs({
    args: process.argv.slice(4),
    options: { "credit-limit": { type: "string" }, terms: { type: "string" }, discount: { type: "string" } },
    strict: true,
  });
  if (values["credit-limit"] === undefined || values.terms === undefined || values.discount === undefined) usage();
  return { creditLimit: Number(values["credit-limit"]), termsDays: Number(values.terms), discountPercent: Number(values.discount) };
}

/** `STATUS [--carrier C --tracking N] [NOTE]` of `order:status`: the carrier and tracking number are for a dispatch. */
function orderMove(): { to: string; note: string; carrier?: string; tracking?: string } | undefined {
  if (!isOrder) return undefined;
  const { values, positionals } = parseArgs({
    args: process.argv.slice(4),
    options: { carrier: { type: "string" }, tracking: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length < 1 || positionals.length > 2) usage();
  return { to: positionals[0]!, note: positionals[1] ?? "", carrier: values.carrier, tracking: values.tracking };
}

/** `--role ROLE [--name NAME]` of `staff:create`; the name defaults to the email's local part. */
function staffInvite(): { role: string; name: string } | undefined {
  if (!isStaffCreate) return undefined;
  const { values } = parseArgs({ args: process.argv.slice(4), options: { role: { type: "string" }, name: { type: "string" } }, strict: true });
  if (!values.role) usage();
  return { role: values.role, name: values.name ?? argument!.split("@")[0]! };
}

/** `--dry-run` and `--valid-only` of `products:import`. */
function importFlags(): { dryRun: boolean; validOnly: boolean } | undefined {
  if (!isProductsImport) return undefined;
  const { values } = parseArgs({ args: process.argv.slice(4), options: { "dry-run": { type: "boolean" }, "valid-only": { type: "boolean" } }, strict: true });
  return { dryRun: !!values["dry-run"], validOnly: !!values["valid-only"] };
}

/** The import's report as the command prints it: counts, then each change and refusal (as the report lists them). */
function printReport(report: ImportReport): void {
  const verb = report.dry_run ? "Would create" : report.applied ? "Created" : "Nothing imported; would create";
  console.log(`${report.file_name} (${report.encoding ?? "unreadable"}): ${report.rows} rows. ${verb} ${report.would_create}, ${report.dry_run || !report.applied ? "would update" : "updated"} ${report.would_update}, ${report.unchanged} unchanged, ${report.refused_rows} refused. ${report.seconds} s.`);
  for (const change of report.changes) {
    console.log(`  row ${change.row} ${change.sku}: ${change.action === "create" ? "new" : "changed"} ${change.fields.map((f) => (change.action === "create" ? `${f.field}=${f.new}` : `${f.field} ${f.old} → ${f.new}`)).join("; ")}`);
  }
  if (report.more_changes) console.log(`  … and ${report.more_changes} more changed rows.`);
  for (const r of report.refused) console.error(`  REFUSED row ${r.row}${r.column ? `, ${r.column}` : ""}${r.sku ? ` (${r.sku})` : ""}: ${r.message}`);
  if (report.more_refused) console.error(`  … and ${report.more_refused} more refusals.`);
  if (!report.dry_run && !report.applied && report.refused.length) console.error("Nothing was changed: correct the refused rows, or run again with --valid-only to import the others.");
}

let terms: TradeTerms | undefined;
let flags: ReturnType<typeof importFlags>;
let invite: ReturnType<typeof staffInvite>;
let move: ReturnType<typeof orderMove>;
try {
  terms = tradeTerms();
  invite = staffInvite();
  move = orderMove();
  flags = importFlags();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  usage();
}

const config = scriptConfig();

const log = pino({ level: "info" });
const database = await openDatabase(config);
const services = createServices(database.db, config, log);
let code = 0;
try {
  await database.migrate();
  if (isProductsImport) {
    const file = path.resolve(argument!);
    if (!existsSync(file)) throw new HttpError(404, `No file ${file}.`);
    if (statSync(file).size > IMPORT_MAX_BYTES) throw new HttpError(413, `${file} is over ${IMPORT_MAX_BYTES / 1024 / 1024} MB: split it into smaller files.`);
    // The same import as the back office's, acting as `system` (one audit entry for the file).
    const bar = progressBar(flags!.dryRun ? "Checking" : "Importing");
    const report = await runImport(database.db, await services.staff.systemActor(), () => createReadStream(file), {
      fileName: path.basename(file),
      dryRun: flags!.dryRun,
      validOnly: flags!.validOnly,
      onProgress: (p) => bar.update(p.done, p.total),
    });
    bar.stop();
    printReport(report);
    if (report.fatal || report.refused.length > 0) code = 1;
  } else if (isOrder) {
    // The same service as the orders desk, acting as the staff member `system` (audited as such).
    const done = await services.adminOrders.transition(await services.staff.systemActor(), argument!, {
      to: move!.to as OrderStatus,
      note: move!.note,
      carrier: move!.carrier,
      tracking_number: move!.tracking,
    });
    console.log(`Order ${done.number} is now ${done.status}.`);
  } else if (isStaffCreate) {
    const done = await services.staff.invite(await services.staff.systemActor(), { email: argument, ...invite });
    console.log(`${done.staff.name} <${done.staff.email}> is now on the staff as ${done.staff.role_label.toLowerCase()}.`);
    console.log(`Set-up link (one use, until ${done.expires_at}): ${done.setup_url}`);
  } else if (isInvoicePaid) {
    const done = await services.tradeStaff.markInvoicePaid(argument!, await services.staff.systemActor());
    const confirmed = done.confirmed.length > 0 ? ` Remittance ${done.confirmed.join(", ")} is confirmed.` : "";
    const owes = done.balance < 0 ? `has £${(-done.balance / 100).toFixed(2)} in credit` : `owes £${(done.balance / 100).toFixed(2)}`;
    console.log(`Invoice ${done.number} of ${done.companyName} is now paid; the account ${owes}.${confirmed}`);
  } else if (isPoRequired) {
    const done = await services.tradeStaff.setPoRequired(argument!, onOff === "on", await services.staff.systemActor());
    console.log(`Trade account ${done.companyName} (${argument}) ${done.poRequired ? "now requires" : "no longer requires"} a PO reference on orders on account.`);
  } else if (isTrade) {
    const done = await services.trade.decide(argument!, TRADE[command as keyof typeof TRADE], terms, await services.staff.systemActor());
    const detail = done.state === "approved" ? `: credit limit £${done.credit_limit.toFixed(2)}, ${done.terms_days} days, ${done.discount_percent}% discount` : "";
    console.log(`Trade account ${done.company_name} (${argument}) is now ${done.state}${detail}.`);
  } else {
    const done = await services.hireRequests.decide(argument!.toUpperCase(), HIRE[command as keyof typeof HIRE], await services.staff.systemActor());
    console.log(`Hire request ${done.number} is now ${done.status}.`);
  }
  // Send the customer's email now rather than waiting for the server's worker.
  await services.mail.deliverDue();
} catch (error) {
  if (error instanceof ValidationError) console.error(Object.values(error.errors).flat().join("\n"));
  else console.error(error instanceof HttpError ? error.message : error);
  code = 1;
} finally {
  await database.close();
}
process.exit(code);
