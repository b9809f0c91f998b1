import { Link } from "react-router";
import { DateCell, MoneyCell } from "./cells.tsx";
import { StatusBadge } from "./status-badge.tsx";
import { DataTable } from "./table-or-cards.tsx";

/** An order in a customer's or a guest's list: its total only for a role that sees prices. */
export interface CustomerOrder {
  number: string;
  created_at: string;
  status: string;
  status_label: string;
  total?: number;
}

/** A customer's or a guest buyer's orders, newest first: each a link to the order where the member may open it. */
export function CustomerOrders({ orders, caption, linked = true }: { orders: readonly CustomerOrder[]; caption: string; linked?: boolean }) {
  return (
    <DataTable
      caption={caption}
      rows={orders}
      rowKey={(o) => o.number}
      rowProps={() => ({ className: "max-lg:bg-white" })}
      columns={[
        {
          label: "Order",
          head: true,
          cellClassName: "whitespace-nowrap font-semibold",
          cell: (o) =>
            linked ? (
              <Link to={`/admin/orders/${o.number}`} className="link">
                {o.number}
              </Link>
            ) : (
              o.number
            ),
        },
        { label: "Placed", cell: (o) => <DateCell value={o.created_at} dateOnly /> },
        { label: "Status", cell: (o) => <StatusBadge status={o.status} label={o.status_label} /> },
        orders.some((o) => o.total !== undefined) && { label: "Total", numeric: true, cell: (o) => (o.total === undefined ? "" : <MoneyCell pounds={o.total} />) },
      ]}
    />
  );
}
