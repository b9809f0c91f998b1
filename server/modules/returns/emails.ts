import type { Db } from "../../db/client.ts";
import type { Outbox } from "../auth/service.ts";
import { renderEmail } from "../mail/templates.ts";
import { type ReturnMethod, returnReasonLabel } from "./statuses.ts";

/** What the returns emails need of the shop. */
export interface ReturnsMail {
  mail: Outbox;
  appName: string;
  publicUrl: string;
  shopEmail: string;
  /** Where returns by post go, one line each. */
  returnsAddress: readonly string[];
  /** Pence inc VAT for a collection of heavy goods sent back for the customer's own reasons. */
  collectionCharge: number;
}

const money = (pence: number) => `£${(pence / 100).toFixed(2)}`;

export interface ReturnForMail {
  number: string;
  orderNumber: string;
  email: string;
  method: ReturnMethod;
  branch: { name: string; address: string; slug: string } | null;
  lines: { name: string; quantity: number; reason: string }[];
}

/** How the goods come back, for the approval email and the page that confirms the request. */
export function returnInstructions(ret: Pick<ReturnForMail, "number" | "method" | "branch">, shop: Pick<ReturnsMail, "returnsAddress" | "collectionCharge">): string[] {
  switch (ret.method) {
    case "branch":
      return [
        `Bring the items, in their packaging if you still have it, to ${ret.branch ? `${ret.branch.name} (${ret.branch.address})` : "any of our branches"} and give the counter your return number ${ret.number}.`,
      ];
    case "post":
      return [
        `Pack the items securely, write ${ret.number} on the parcel and send it to: ${shop.returnsAddress.join(", ")}.`,
        "Keep your proof of postage until we have refunded you.",
      ];
    case "collection":
      return [
        `We will call or email you to arrange a day to collect the items; quote ${ret.number}.`,
        ...(shop.collectionCharge > 0 ? [`A collection costs ${money(shop.collectionCharge)}, taken off your refund, unless the items are faulty, damaged or not what you ordered.`] : []),
      ];
  }
}

const summary = (ret: ReturnForMail) => ret.lines.map((l) => `${l.quantity} × ${l.name}: ${returnReasonLabel(l.reason)}`);

/** The customer's email about a return, into the outbox in the caller's transaction. */
export async function emailReturn(
  tx: Db,
  shop: ReturnsMail,
  ret: ReturnForMail,
  event: { kind: "requested" } | { kind: "approved" } | { kind: "rejected"; reason: string } | { kind: "received"; note: string } | { kind: "refunded"; how: string } | { kind: "exchanged"; order: string },
): Promise<void> {
  const contact = `Any questions? Email us at ${shop.shopEmail}, quoting ${ret.number}.`;
  let title: string;
  let paragraphs: string[];
  switch (event.kind) {
    case "requested":
      title = `Return ${ret.number} requested`;
      paragraphs = [`We have your request to return items from order ${ret.orderNumber}:`, ...summary(ret), "We will check it and email you how to send the items back, usually within one working day."];
      break;
    case "approved":
      title = `Return ${ret.number}: how to send it back`;
      paragraphs = [`Your return of items from order ${ret.orderNumber} is approved:`, ...summary(ret), ...returnInstructions(ret, shop), "We refund you within 14 days of receiving the items."];
      break;
    case "rejected":
      title = `Return ${ret.number} could not be accepted`;
      paragraphs = [`We cannot accept your return of items from order ${ret.orderNumber}.`, `Why: ${event.reason}`];
      break;
    case "received":
      title = `Return ${ret.number} received`;
      paragraphs = [`We have received the items you returned from order ${ret.orderNumber}.`, event.note, "We will refund you within 14 days."];
      break;
    case "refunded":
      title = `Return ${ret.number} refunded`;
      paragraphs = [`Your return of items from order ${ret.orderNumber} is refunded: ${event.how}`];
      break;
    case "exchanged":
      title = `Return ${ret.number}: your replacement is on its way`;
      paragraphs = [`Instead of a refund we are sending you a replacement at no charge: order ${event.order}.`, "We will email you when it is dispatched."];
      break;
  }
  const rendered = renderEmail({ appName: shop.appName, publicUrl: shop.publicUrl, title, paragraphs: [...paragraphs, contact] });
  await shop.mail.enqueue(tx, { to: ret.email, subject: title, ...rendered });
}
