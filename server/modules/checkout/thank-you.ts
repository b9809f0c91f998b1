// Who may see an order on the thank-you page: whoever placed it signed in, or
// a browser holding the signed link checkout answered with. The JSON route and
// the server-rendered page (app/routes/checkout/thank-you.tsx) ask the same.
import type { OrderService } from "../orders/service.ts";

export const ORDER_NUMBER = /^TC-\d{6,}$/;

export interface ThankYouLink {
  expires?: string | null;
  signature?: string | null;
}

/** The order for the thank-you page, or null when it does not exist or this visitor may not see it. */
export async function thankYouOrder(
  deps: { orders: Pick<OrderService, "byNumber" | "forUser">; verify: (number: string, expires: string, signature: string) => boolean },
  number: string,
  link: ThankYouLink,
  userId: number | null,
) {
  if (!ORDER_NUMBER.test(number)) return null;
  const order = await deps.orders.byNumber(number);
  if (!order) return null;
  const signed = !!link.expires && !!link.signature && deps.verify(number, link.expires, link.signature);
  if (signed) return order;
  return userId !== null && (await deps.orders.forUser(userId, order.id)) !== null ? order : null;
}
