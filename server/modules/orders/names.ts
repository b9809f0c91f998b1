// Who an order is for, in the words every list, page, email and document uses
// (issue 34): the name checkout or the counter took, else the email, so an
// order is never shown as "—".

/** The order's customer as the shop shows them: the name given, or the email when the order has none. */
export function orderCustomerLabel(order: { customerName: string; email: string }): string {
  return order.customerName.trim() || order.email;
}
