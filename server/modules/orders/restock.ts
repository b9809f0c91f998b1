import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { products } from "../catalog/schema.ts";
import { orderLines } from "./schema.ts";

/**
 * A cancelled order's goods go back on the shelf: each line's quantity is
 * added back to its product's stock, in the caller's transaction. Lines whose
 * product was since removed have nowhere to go.
 */
export async function putStockBack(tx: Db, orderId: number): Promise<void> {
  await tx.execute(sql`
    update ${products} set stock = ${products.stock} + back.quantity, updated_at = now()
    from (select ${orderLines.productId} as product_id, sum(${orderLines.quantity})::int as quantity
          from ${orderLines} where ${orderLines.orderId} = ${orderId} and ${orderLines.productId} is not null
          group by ${orderLines.productId}) as back
    where ${products.id} = back.product_id`);
}
