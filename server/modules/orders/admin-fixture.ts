// The orders desk's tests' shared shop (admin.test.ts, admin-moves.test.ts):
// a database with two products, a member of each role, a customer and a trade
// account, and orders written straight to the tables as checkout leaves them.
// Its state is exported live: each test file calls setUpOrdersDesk() once, and
// reads db, desk and the rest after its beforeAll has run.
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll } from "vitest";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { type TestDatabase, createTestDatabase } from "../../test/database.ts";
import { tableOutbox } from "../../test/outbox.ts";
import { auditLog } from "../audit/schema.ts";
import { users } from "../auth/schema.ts";
import { products } from "../catalog/schema.ts";
import { deliveryMethods } from "../delivery/schema.ts";
import { mailOutbox } from "../mail/schema.ts";
import type { StaffActor } from "../staff/actor.ts";
import type { StaffRole } from "../staff/permissions.ts";
import { tradeAccounts } from "../trade/schema.ts";
import { type AdminOrderService, createAdminOrderService } from "./admin.ts";
import { type OrderStatus, orderAddresses, orderLines, orderStatusHistory, orders } from "./schema.ts";
import { staffMembers } from "../../test/staff-members.ts";
import { hammerAndLevel } from "../../test/products.ts";

export let database: TestDatabase;
export let db: Db;
export let desk: AdminOrderService;
export const as = {} as Record<StaffRole, StaffActor>;

/** The shop's own outbox: rows (and attachments) in the caller's transaction; nothing here sends them. */
export const outbox = tableOutbox;
export const shop = {
  appName: "Tradecounter",
  publicUrl: "http://shop.test",
  shopEmail: "shop@example.com",
  branchAddress: ["Unit 4, Canal Wharf", "Leeds", "LS11 5PS"],
  shop: { name: "Tradecounter", email: "shop@example.com", address: ["Unit 4, Canal Wharf", "Leeds", "LS11 5PS"], vatNumber: "" },
};

export let stockA: number;
export let stockB: number;
export let ursulaId: number;
export let shahId: number;

export interface OrderSpec {
  status: OrderStatus;
  email?: string;
  phone?: string;
  method?: "standard" | "collect";
  payment?: "bank_transfer" | "pay_on_collection" | "pay_on_account";
  delivery?: { name: string; postcode: string } | null;
  billing?: { name: string; postcode: string } | null;
  userId?: number | null;
  trade?: boolean;
  createdAt?: Date;
  lines?: { productId: number | null; quantity: number; unitPrice?: number }[];
  carrier?: string;
  number?: string;
}

/** An order written straight to the tables, as checkout leaves one: lines, addresses and its first timeline entry. */
export async function makeOrder(spec: OrderSpec): Promise<{ id: number; number: string }> {
  const lines = spec.lines ?? [{ productId: stockA, quantity: 1 }];
  let subtotal = 0;
  let vat = 0;
  const priced = lines.map((l) => {
    const unitPrice = l.unitPrice ?? 1000;
    const lineTotal = unitPrice * l.quantity;
    const lineVat = Math.round(lineTotal * 0.2);
    subtotal += lineTotal;
    vat += lineVat;
    return { ...l, unitPrice, lineTotal, lineVat };
  });
  const collect = spec.method === "collect";
  const delivery = collect ? 0 : 695;
  const [row] = await db
    .insert(orders)
    .values({
      number: spec.number ?? `pending-${crypto.randomUUID()}`,
      userId: spec.userId ?? null,
      email: spec.email ?? "someone@example.com",
      phone: spec.phone ?? "0113 496 0000",
      status: spec.status,
      deliveryMethod: collect ? "collect" : "standard",
      deliveryName: collect ? "Click & collect" : "Standard delivery",
      subtotal,
      vat,
      delivery,
      total: subtotal + vat + delivery,
      paymentMethod: spec.payment ?? "bank_transfer",
      tradeAccountId: spec.trade ? shahId : null,
      carrier: spec.carrier ?? null,
      createdAt: spec.createdAt ?? new Date(),
    })
    .returning({ id: orders.id });
  const number = spec.number ?? `TC-${String(row!.id).padStart(6, "0")}`;
  if (!spec.number) await db.update(orders).set({ number }).where(eq(orders.id, row!.id));
  await db.insert(orderLines).values(
    priced.map((l, i) => ({ orderId: row!.id, productId: l.productId, variantId: l.productId === null ? null : sql<number>`(select id from product_variants where product_id = ${l.productId})`, sku: `SKU-${i}`, name: `Line ${i}`, slug: `line-${i}`, quantity: l.quantity, unitPrice: l.unitPrice, vatRate: 20, lineTotal: l.lineTotal, lineVat: l.lineVat })),
  );
  const address = (kind: string, a: { name: string; postcode: string }) => ({ orderId: row!.id, kind, name: a.name, line1: "1 High Street", town: "Leeds", postcode: a.postcode });
  const delivered = spec.delivery === undefined ? (collect ? null : { name: "Pat Person", postcode: "LS1 1AB" }) : spec.delivery;
  const addresses = [...(delivered ? [address("delivery", delivered)] : []), ...(spec.billing ? [address("billing", spec.billing)] : delivered ? [address("billing", delivered)] : [])];
  if (addresses.length) await db.insert(orderAddresses).values(addresses);
  await db.insert(orderStatusHistory).values({ orderId: row!.id, status: spec.status, note: "Order placed." });
  return { id: row!.id, number };
}

export const stockOf = async (id: number) => (await db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
export const numbers = (page: { data: { number: string }[] }) => page.data.map((o) => o.number);
export const mailTo = (to: string) => db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(asc(mailOutbox.id));
export const auditOf = (number: string) => db.select().from(auditLog).where(and(eq(auditLog.entity, "order"), eq(auditLog.entityId, number))).orderBy(asc(auditLog.id));

export async function refusal(promise: Promise<unknown> | (() => unknown)): Promise<HttpError | ValidationError> {
  try {
    await (typeof promise === "function" ? promise() : promise);
  } catch (error) {
    if (error instanceof HttpError || error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

/** Builds the shop before the file's tests and destroys it after them. */
export function setUpOrdersDesk(): void {
  beforeAll(async () => {
    database = await createTestDatabase();
    db = database.db;
    desk = createAdminOrderService(db, { mail: outbox, ...shop });
    await db.insert(deliveryMethods).values([
      { code: "standard", name: "Standard delivery", kind: "delivery", price: 695 },
      { code: "collect", name: "Click & collect", kind: "collect", price: 0 },
    ]);
    [stockA, stockB] = await hammerAndLevel(db, ["DESK-A", "DESK-B"], [10, 5]);
    Object.assign(as, await staffMembers(db, "desk.example.com"));
    const [ursula] = await db.insert(users).values({ email: "ursula@example.com", firstname: "Ursula", lastname: "Account", passwordHash: "x" }).returning({ id: users.id });
    ursulaId = ursula!.id;
    const [shah] = await db
      .insert(tradeAccounts)
      .values({ companyName: "Shah Building Services Ltd", companyType: "limited_company", companyNumber: "01234567", trade: "Builder", line1: "1 Yard", town: "Leeds", postcode: "LS1 4AP", phone: "0113 496 0001", accountsEmail: "accounts@shah.example.com", expectedMonthlySpend: 100_000, requestedCreditLimit: 500_000 })
      .returning({ id: tradeAccounts.id });
    shahId = shah!.id;
  }, 60_000);
  afterAll(() => database?.destroy());
}
