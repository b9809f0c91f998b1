import { Link } from "react-router";

/** A trade invoice's number as the link to its page. */
export function InvoiceLink({ invoice, className }: { invoice: { id: number; number: string }; className: string }) {
  return (
    <Link to={`/trade/invoices/view/${invoice.id}`} className={className}>
      {invoice.number}
    </Link>
  );
}
