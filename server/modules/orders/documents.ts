import { quantityIn } from "../catalog/products/units.ts";
import { blocks, caption, contentWidth, ensureSpace, header, INK, left, measure, MUTED, renderPdf, rule, signatureBox, table, write, type Column, type Pdf } from "../../lib/pdf.ts";

/**
 * The warehouse's paperwork for orders: a picking list and a delivery note
 * for one order, and a batch picking list for every order awaiting dispatch.
 * Plain data in, PDF bytes out: the callers read the orders. None of them
 * shows a price: they are printed for, and handed over by, warehouse staff.
 */

export interface DocumentAddress {
  name: string;
  /** The recipient's company (issue 34). */
  company?: string;
  line1: string;
  line2: string;
  line3: string;
  town: string;
  county: string;
  postcode: string;
}

export interface DocumentLine {
  sku: string;
  name: string;
  quantity: number;
  /** The unit it is sold in (catalog/products/units.ts): "12 m", "3 packs". Each when absent. */
  unit?: string;
  /** Where the product sits in the warehouse (products.bin_location): the picking list walks the bins in order. */
  bin?: string;
}

export interface PickingOrder {
  number: string;
  createdAt: Date;
  /** The order's delivery method id, e.g. `standard` or `collection`. */
  deliveryMethod: string;
  /** Its name as the customer saw it, e.g. "Next working day"; the id when absent. */
  deliveryMethodLabel?: string;
  /** Collected from the counter: no delivery address. */
  collection: boolean;
  address: DocumentAddress | null;
  notes: string;
  /** Who it is for (orders/names.ts), their phone and the buyer's purchase-order reference: the counter and the driver ask for them (issue 34). */
  customer: string;
  phone: string;
  poReference: string;
  lines: DocumentLine[];
}

/** The sender on a delivery note. ShopDetails (trade invoices) fits as it is. */
export interface DocumentShop {
  name: string;
  address: string[];
  email?: string;
  phone?: string;
}

const LONDON_DATE = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });

/** "25 Nov 2026, 14:05", in the shop's time whatever the server's zone. */
export function orderDate(d: Date): string {
  return LONDON_DATE.format(d);
}

// SKU-2 before SKU-10, as on the shelf labels.
const BY_SKU = new Intl.Collator("en-GB", { numeric: true, sensitivity: "base" });

export function sortedBySku<T extends { sku: string }>(lines: readonly T[]): T[] {
  return [...lines].sort((a, b) => BY_SKU.compare(a.sku, b.sku));
}

/** The order a picker walks the warehouse: by bin (A2 before A10), lines with no bin last, then by SKU. */
export function sortedByBin<T extends { sku: string; bin?: string }>(lines: readonly T[]): T[] {
  return [...lines].sort((a, b) => {
    const [x, y] = [a.bin?.trim() ?? "", b.bin?.trim() ?? ""];
    if (x !== y) return x === "" ? 1 : y === "" ? -1 : BY_SKU.compare(x, y);
    return BY_SKU.compare(a.sku, b.sku);
  });
}

export function addressLines(a: DocumentAddress): string[] {
  return [a.name, a.company ?? "", a.line1, a.line2, a.line3, a.town, a.county, a.postcode].map((s) => s.trim()).filter((s) => s !== "");
}

/** "Delivery: Next working day", "Collection: Click & collect", or just "Collection". */
function methodLabel(o: PickingOrder): string {
  const kind = o.collection ? "Collection" : "Delivery";
  const label = o.deliveryMethodLabel?.trim() || o.deliveryMethod.trim();
  return label === "" || label.toLowerCase() === kind.toLowerCase() ? kind : `${kind}: ${label}`;
}

/** Where it goes: the address, or who collects it from the counter; with the phone to call. */
function destination(o: PickingOrder): string[] {
  const phone = o.phone.trim() ? [`Phone: ${o.phone.trim()}`] : [];
  if (o.collection) return [`Collected by ${o.customer}`, ...phone];
  if (!o.address) return [o.customer, "No delivery address on the order", ...phone];
  // Orders from before names were asked may have an address without one.
  const lines = addressLines(o.address);
  return [...(o.address.name.trim() ? [] : [o.customer]), ...lines, ...phone];
}

/** The order block's lines: number, date, method, and the PO when there is one. */
function orderLinesOf(o: PickingOrder): (string | { text: string; bold?: boolean; size?: number })[] {
  return [{ text: o.number, bold: true, size: 12 }, `Placed: ${orderDate(o.createdAt)}`, { text: methodLabel(o), bold: true }, ...(o.poReference.trim() ? [`PO: ${o.poReference.trim()}`] : [])];
}

/** Pieces to pick: a line sold by measure (25 m of cable, 2 tonnes of sand) is one, cut or weighed; each and packs are counted. */
function itemCount(lines: readonly DocumentLine[]): number {
  return lines.reduce((n, l) => n + (l.unit === undefined || l.unit === "each" || l.unit === "pack" ? l.quantity : 1), 0);
}

function countText(lines: readonly DocumentLine[]): string {
  const items = itemCount(lines);
  return `Total items: ${items} (${lines.length} ${lines.length === 1 ? "line" : "lines"})`;
}

const PICK_COLUMNS: Column[] = [{ header: "Bin", width: 60 }, { header: "SKU", width: 100 }, { header: "Item" }, { header: "Qty", width: 45, align: "right" }, { header: "Picked", width: 50, tickBox: true }];

function pickRows(lines: readonly DocumentLine[]): string[][] {
  return sortedByBin(lines).map((l) => [l.bin?.trim() ?? "", l.sku, l.name, quantityIn(l.quantity, l.unit), ""]);
}

/** The customer's notes in a ruled box, so a picker does not miss them. */
function notesBox(doc: Pdf, notes: string): void {
  const text = notes.trim() || "None";
  const width = contentWidth(doc) - 16;
  const height = measure(doc, text, { size: 10, width, multiline: true }) + 26;
  ensureSpace(doc, Math.min(height, 200));
  const top = doc.y;
  const page = doc.page;
  write(doc, "CUSTOMER'S NOTES", left(doc) + 8, top + 6, { size: 8, bold: true, color: MUTED });
  write(doc, text, left(doc) + 8, doc.y + 3, { size: 10, width, multiline: true, bold: text !== "None" });
  // Notes long enough to run onto another page (pdfkit turns it) are left unboxed.
  if (doc.page === page) doc.save().lineWidth(0.8).strokeColor(INK).rect(left(doc), top, contentWidth(doc), doc.y - top + 6).stroke().restore();
  doc.y += 16;
}

/** A picking list for one order: what to take from the shelves, in bin order, with a box to tick for each line. */
export function pickingListPdf(order: PickingOrder): Promise<Buffer> {
  return renderPdf({ title: `Picking list ${order.number}`, footer: `Picking list \u00b7 Order ${order.number}` }, (doc) => {
    header(doc, "PICKING LIST", order.number);
    const half = contentWidth(doc) / 2;
    blocks(doc, [
      { x: 0, width: half - 10, caption: "Order", lines: orderLinesOf(order) },
      { x: half, width: half, caption: order.collection ? "Collection" : "Deliver to", lines: destination(order) },
    ]);
    doc.y += 14;
    notesBox(doc, order.notes);
    const continued = `Picking list ${order.number} (continued)`;
    table(doc, PICK_COLUMNS, pickRows(order.lines), { size: 10, continued, keepAfter: 16 });
    ensureSpace(doc, 16, continued);
    write(doc, countText(order.lines), left(doc), doc.y, { size: 11, bold: true });
  });
}

/** A delivery note for one order: goods and quantities without prices, and a box for whoever receives them to sign. */
export function deliveryNotePdf(order: PickingOrder, shop: DocumentShop): Promise<Buffer> {
  return renderPdf({ title: `Delivery note ${order.number}`, footer: `${shop.name} \u00b7 Delivery note \u00b7 Order ${order.number}` }, (doc) => {
    header(doc, "DELIVERY NOTE", order.number);
    const half = contentWidth(doc) / 2;
    blocks(doc, [
      { x: 0, width: half - 10, caption: "From", lines: [{ text: shop.name, bold: true, size: 11 }, ...shop.address, shop.phone ?? "", shop.email ?? ""] },
      { x: half, width: half, caption: order.collection ? "Collection" : "Deliver to", lines: destination(order) },
    ]);
    doc.y += 12;
    blocks(doc, [
      { x: 0, width: half - 10, lines: [`Order: ${order.number}`, `Order date: ${orderDate(order.createdAt)}`, ...(order.poReference.trim() ? [`Your PO: ${order.poReference.trim()}`] : [])] },
      { x: half, width: half, lines: [methodLabel(order)] },
    ]);
    doc.y += 16;
    const continued = `Delivery note ${order.number} (continued)`;
    table(doc, [{ header: "SKU", width: 110 }, { header: "Item" }, { header: "Qty", width: 50, align: "right" }], sortedBySku(order.lines).map((l) => [l.sku, l.name, quantityIn(l.quantity, l.unit)]), { size: 10, continued, keepAfter: 16 });
    ensureSpace(doc, 16, continued);
    write(doc, countText(order.lines), left(doc), doc.y, { size: 11, bold: true });
    doc.y += 18;
    signatureBox(doc, "Goods received in good condition", ["Received by (name)", "Signature", "Date"], continued);
    write(doc, "Please check the goods before signing for them.", left(doc), doc.y, { size: 8, color: MUTED });
  });
}

export interface SkuTotal {
  sku: string;
  name: string;
  quantity: number;
  unit?: string;
  bin?: string;
}

/** Each SKU's quantity over all the orders, in bin order (the name is the first order's). */
export function skuTotals(orders: readonly PickingOrder[]): SkuTotal[] {
  const bySku = new Map<string, SkuTotal>();
  for (const o of orders) {
    for (const l of o.lines) {
      const t = bySku.get(l.sku);
      if (t) t.quantity += l.quantity;
      else bySku.set(l.sku, { sku: l.sku, name: l.name, quantity: l.quantity, ...(l.unit ? { unit: l.unit } : {}), ...(l.bin ? { bin: l.bin } : {}) });
    }
  }
  return sortedByBin([...bySku.values()]);
}

/**
 * Every order awaiting dispatch on one print: first the total of each SKU
 * over them all, to walk the shelves once; then a section per order to
 * share the goods out.
 */
export function batchPickingListPdf(orders: readonly PickingOrder[], printedAt: Date = new Date()): Promise<Buffer> {
  const printed = orderDate(printedAt);
  return renderPdf({ title: `Batch picking list ${printed}`, footer: `Batch picking list \u00b7 ${orders.length} ${orders.length === 1 ? "order" : "orders"} \u00b7 printed ${printed}` }, (doc) => {
    header(doc, "BATCH PICKING LIST", `${orders.length} ${orders.length === 1 ? "order" : "orders"}`);
    if (orders.length === 0) {
      write(doc, "No orders are awaiting dispatch.", left(doc), doc.y, { size: 11 });
      return;
    }
    const totals = skuTotals(orders);
    const allLines = orders.flatMap((o) => o.lines);
    write(doc, `Printed ${printed}: ${itemCount(allLines)} items of ${totals.length} ${totals.length === 1 ? "SKU" : "SKUs"} for ${orders.length} ${orders.length === 1 ? "order" : "orders"}.`, left(doc), doc.y, { size: 9, color: MUTED });
    doc.y += 10;
    caption(doc, "Totals by SKU: pick these, then share them out below");
    table(
      doc,
      [{ header: "Bin", width: 60 }, { header: "SKU", width: 100 }, { header: "Item" }, { header: "Total qty", width: 60, align: "right" }, { header: "Picked", width: 50, tickBox: true }],
      totals.map((t) => [t.bin?.trim() ?? "", t.sku, t.name, quantityIn(t.quantity, t.unit), ""]),
      { size: 10, continued: "Totals by SKU (continued)" },
    );

    orders.forEach((o, i) => {
      // The orders start on a page of their own, after the totals.
      if (i === 0) {
        doc.addPage();
        doc.y = doc.page.margins.top;
      } else {
        doc.y += 8;
      }
      ensureSpace(doc, 110);
      const top = doc.y;
      doc.save().rect(left(doc), top, contentWidth(doc), 22).fill(INK).restore();
      write(doc, `Order ${o.number}`, left(doc) + 8, top + 6, { size: 11, bold: true, color: "#ffffff", width: 200 });
      write(doc, `${i + 1} of ${orders.length} \u00b7 ${orderDate(o.createdAt)}`, left(doc) + 200, top + 7, { size: 9, color: "#ffffff", width: contentWidth(doc) - 208, align: "right" });
      doc.y = top + 28;
      const to = o.collection ? methodLabel(o) : `${methodLabel(o)} \u00b7 ${o.address ? addressLines(o.address).join(", ") : "no delivery address"}`;
      write(doc, to, left(doc), doc.y, { size: 10, bold: true });
      const who = [o.customer, o.phone.trim() ? `phone ${o.phone.trim()}` : "", o.poReference.trim() ? `PO ${o.poReference.trim()}` : ""].filter(Boolean).join(" \u00b7 ");
      write(doc, who, left(doc), doc.y + 2, { size: 9 });
      if (o.notes.trim()) write(doc, `Notes: ${o.notes.trim()}`, left(doc), doc.y + 2, { size: 9, multiline: true });
      doc.y += 6;
      const continued = `Order ${o.number} (continued)`;
      table(doc, PICK_COLUMNS, pickRows(o.lines), { size: 10, continued, keepAfter: 12 });
      ensureSpace(doc, 12, continued);
      write(doc, countText(o.lines), left(doc), doc.y - 4, { size: 9, bold: true });
      rule(doc, doc.y + 6);
      doc.y += 10;
    });
  });
}
