// Staff commands until a back office exists:
//   npm run shop -- hire:confirm HR-000123   (holds become bookings; the customer is emailed)
//   npm run shop -- hire:decline HR-000123   (units freed; the customer is emailed)
//   npm run shop -- hire:complete HR-000123  (units back in the fleet; the customer is emailed)
//   npm run shop -- order:status TC-000123 dispatched ["note"]  (recorded in the history; emailed where it matters)
import pino from "pino";
import { scriptConfig } from "../server/bootstrap.ts";
import { openDatabase } from "../server/db/client.ts";
import { HttpError } from "../server/http-errors.ts";
import { createServices } from "../server/services.ts";

const HIRE = { "hire:confirm": "confirm", "hire:decline": "decline", "hire:complete": "complete" } as const;
const [command, argument] = process.argv.slice(2);

const isOrder = command === "order:status";
if (!command || !(command in HIRE || isOrder) || !argument || (isOrder && !process.argv[4])) {
  console.error("Usage: npm run shop -- hire:confirm|hire:decline|hire:complete NUMBER");
  console.error("       npm run shop -- order:status ORDER_NUMBER STATUS [NOTE]");
  process.exit(2);
}

const config = scriptConfig();

const log = pino({ level: "info" });
const database = await openDatabase(config);
const services = createServices(database.db, config, log);
let code = 0;
try {
  await database.migrate();
  if (isOrder) {
    const done = await services.orders.setStatus(argument.toUpperCase(), process.argv[4]!, process.argv[5] ?? "");
    console.log(`Order ${done.number} is now ${done.status}.`);
  } else {
    const done = await services.hireRequests.decide(argument.toUpperCase(), HIRE[command as keyof typeof HIRE]);
    console.log(`Hire request ${done.number} is now ${done.status}.`);
  }
  // Send the customer's email now rather than waiting for the server's worker.
  await services.mail.deliverDue();
} catch (error) {
  console.error(error instanceof HttpError ? error.message : error);
  code = 1;
} finally {
  await database.close();
}
process.exit(code);
