// The warehouse's PDFs (picking list, delivery note, batch picking list),
// read back with poppler as a person would see them (server/test/pdf.ts).
import { describe, expect, it } from "vitest";
import { readPdf, row } from "../../test/pdf.ts";
import { batchPickingListPdf, deliveryNotePdf, pickingListPdf, type PickingOrder, skuTotals, sortedBySku } from "./documents.ts";

const delivered: PickingOrder = {
  number: "TC-000101",
  // Summer time: 13:05 UTC is 14:05 in London.
  createdAt: new Date("2026-07-01T13:05:00Z"),
  deliveryMethod: "standard",
  deliveryMethodLabel: "Standard delivery",
  collection: false,
  address: { name: "Jo Bloggs", line1: "Flat 2", line2: "14 Kirkstall Road", line3: "", town: "Leeds", county: "West Yorkshire", postcode: "LS3 1LH" },
  notes: "Leave with no. 16 if out.\nSide gate is unlocked.",
  customer: "Jo Bloggs",
  phone: "0113 496 0000",
  poReference: "PO-7781",
  lines: [
    { sku: "PIPE-15", name: "Copper pipe 15mm x 3m", quantity: 10 },
    { sku: "BOIL-30", name: "Combi boiler 30kW", quantity: 1 },
    { sku: "BOOT-10", name: "Safety boots \u2013 size 10 \u2603", quantity: 2 },
  ],
};

const collected: PickingOrder = {
  number: "TC-000102",
  createdAt: new Date("2026-11-25T09:30:00Z"),
  deliveryMethod: "collection",
  deliveryMethodLabel: "Click & collect",
  collection: true,
  address: null,
  notes: "",
  customer: "Sam Collector",
  phone: "",
  poReference: "",
  lines: [
    { sku: "VALVE-1", name: "Radiator valve", quantity: 6 },
    { sku: "PIPE-15", name: "Copper pipe 15mm x 3m", quantity: 4 },
  ],
};

const shop = { name: "Tradecounter", address: ["Unit 4, Canal Wharf", "Leeds", "LS11 5PS"], email: "orders@tradecounter.example", vatNumber: "GB 987 6543 21" };

/** Anything that looks like money: a pound sign, pence after a point, VAT. */
const PRICE = /\u00a3|\d\.\d\d(?!\d)|VAT/;

async function read(made: Promise<Buffer>) {
  const pdf = await made;
  expect(pdf.subarray(0, 8).toString("latin1")).toBe("%PDF-1.4");
  const doc = await readPdf(pdf);
  expect(doc.info.Producer).toBe("PDFKit");
  expect(doc.info["Page size"]).toMatch(/A4/);
  expect(doc.info.Pages).toBe(String(doc.pages.length));
  return doc;
}

const positions = (text: string, needles: string[]) => needles.map((n) => text.indexOf(n));

describe("picking list", () => {
  it("has the order, its date in London, how it goes, the address, the notes, the lines by SKU with a tick column, the item count, and no prices", async () => {
    const { text, info, pages } = await read(pickingListPdf(delivered));
    expect(info.Title).toBe("Picking list TC-000101");
    expect(pages).toHaveLength(1);
    expect(text).toContain("PICKING LIST");
    expect(text).toContain("TC-000101");
    expect(text).toContain("Placed: 1 Jul 2026, 14:05");
    expect(text).toContain("Delivery: Standard delivery");
    for (const l of ["Jo Bloggs", "Flat 2", "14 Kirkstall Road", "Leeds", "West Yorkshire", "LS3 1LH"]) expect(text).toContain(l);
    expect(text).toContain("Leave with no. 16 if out.");
    expect(text).toContain("Side gate is unlocked.");
    expect(text).toMatch(row("SKU", "Item", "Qty", "Picked"));
    expect(text).toMatch(row("BOIL-30", "Combi boiler 30kW", "1"));
    // A character Helvetica lacks is printed as "?"; the dash it has.
    expect(text).toMatch(row("BOOT-10", "Safety boots \u2013 size 10 ?", "2"));
    expect(text).toMatch(row("PIPE-15", "Copper pipe 15mm x 3m", "10"));
    const [boil, boot, pipe] = positions(text, ["BOIL-30", "BOOT-10", "PIPE-15"]);
    expect(boil).toBeLessThan(boot!);
    expect(boot).toBeLessThan(pipe!);
    expect(text).toContain("Total items: 13 (3 lines)");
    expect(text).toContain("Page 1 of 1");
    expect(text).not.toMatch(PRICE);
  });

  it("prints each quantity in the unit it is sold in, a variant named by its options; a line sold by measure is one piece to pick", async () => {
    const measured: PickingOrder = {
      ...collected,
      lines: [
        { sku: "TCL-TE25-GREY", name: "Twin and earth cable 2.5 mm\u00b2 (Grey)", quantity: 25, unit: "m" },
        { sku: "TCL-PT6060", name: "Porcelain floor tile 600 \u00d7 600 mm (Grey)", quantity: 9, unit: "pack" },
        { sku: "TCL-CLS3863-30M", name: "CLS studwork 38 \u00d7 63 mm (3.0 m)", quantity: 4, unit: "each" },
      ],
    };
    for (const made of [pickingListPdf(measured), deliveryNotePdf(measured, shop)]) {
      const { text } = await read(made);
      expect(text).toMatch(row("TCL-TE25-GREY", "Twin and earth cable 2.5 mm\u00b2 (Grey)", "25 m"));
      expect(text).toMatch(row("TCL-PT6060", "Porcelain floor tile 600 \u00d7 600 mm (Grey)", "9 packs"));
      expect(text).toMatch(row("TCL-CLS3863-30M", "CLS studwork 38 \u00d7 63 mm (3.0 m)", "4"));
      expect(text).toContain("Total items: 14 (3 lines)");
    }
    const batch = await read(batchPickingListPdf([measured, { ...measured, number: "TC-000109" }]));
    expect(batch.pages[0]).toMatch(row("TCL-TE25-GREY", "Twin and earth cable 2.5 mm\u00b2 (Grey)", "50 m"));
  });

  it("for a collection says so instead of an address", async () => {
    const { text } = await read(pickingListPdf(collected));
    expect(text).toContain("Collection: Click & collect");
    expect(text).toContain("Collected by Sam Collector");
    expect(text).not.toContain("Phone:");
    expect(text).not.toContain("PO:");
    expect(text).toContain("CUSTOMER'S NOTES");
    expect(text).toContain("None");
    expect(text).toContain("Total items: 10 (2 lines)");
    expect(text).not.toMatch(PRICE);
  });

  it("names who it is for, their phone and the PO reference (issue 34)", async () => {
    const { text } = await read(pickingListPdf(delivered));
    expect(text).toContain("Phone: 0113 496 0000");
    expect(text).toContain("PO: PO-7781");
    // An order from before names were asked: the address has none, so the customer's label (the email) is printed.
    const nameless = await read(pickingListPdf({ ...delivered, customer: "old@example.com", address: { ...delivered.address!, name: "" } }));
    expect(nameless.text).toContain("old@example.com");
  });

  it("walks the bins in order: A2 before A10, lines with no bin last, then by SKU", async () => {
    const binned: PickingOrder = {
      ...delivered,
      lines: [
        { sku: "PIPE-15", name: "Copper pipe 15mm x 3m", quantity: 10, bin: "A10-3" },
        { sku: "AAA-1", name: "Unshelved widget", quantity: 1 },
        { sku: "BOIL-30", name: "Combi boiler 30kW", quantity: 1, bin: "B1" },
        { sku: "BOOT-10", name: "Safety boots", quantity: 2, bin: "A2-1" },
      ],
    };
    const { text } = await read(pickingListPdf(binned));
    expect(text).toMatch(row("Bin", "SKU", "Item", "Qty", "Picked"));
    expect(text).toMatch(row("A2-1", "BOOT-10", "Safety boots", "2"));
    const order = positions(text, ["BOOT-10", "PIPE-15", "BOIL-30", "AAA-1"]);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it("sorts SKUs as the shelves do: SKU-2 before SKU-10, case aside", () => {
    expect(sortedBySku([{ sku: "SKU-10" }, { sku: "sku-3" }, { sku: "SKU-2" }, { sku: "AB-1" }]).map((l) => l.sku)).toEqual(["AB-1", "SKU-2", "sku-3", "SKU-10"]);
  });
});

describe("delivery note", () => {
  it("has the shop, the order and its date, the address, the lines without prices and a box to sign", async () => {
    const { text, info } = await read(deliveryNotePdf(delivered, shop));
    expect(info.Title).toBe("Delivery note TC-000101");
    expect(text).toContain("DELIVERY NOTE");
    for (const l of ["Tradecounter", "Unit 4, Canal Wharf", "LS11 5PS", "orders@tradecounter.example"]) expect(text).toContain(l);
    expect(text).toContain("Order: TC-000101");
    expect(text).toContain("Order date: 1 Jul 2026, 14:05");
    expect(text).toContain("Your PO: PO-7781");
    for (const l of ["Jo Bloggs", "14 Kirkstall Road", "LS3 1LH"]) expect(text).toContain(l);
    expect(text).toMatch(row("SKU", "Item", "Qty"));
    expect(text).toMatch(row("BOIL-30", "Combi boiler 30kW", "1"));
    expect(text).toMatch(row("PIPE-15", "Copper pipe 15mm x 3m", "10"));
    expect(text).toContain("Total items: 13 (3 lines)");
    for (const l of ["Received by (name)", "Signature", "Date"]) expect(text).toContain(l);
    // The shop's VAT number is an invoice's business, not a delivery note's.
    expect(text).not.toMatch(PRICE);
  });

  it("for a collection names no address", async () => {
    const { text } = await read(deliveryNotePdf(collected, shop));
    expect(text).toContain("Collected by Sam Collector");
    expect(text).toMatch(row("VALVE-1", "Radiator valve", "6"));
  });
});

describe("batch picking list", () => {
  const third: PickingOrder = { ...delivered, number: "TC-000103", notes: "", lines: [{ sku: "VALVE-1", name: "Radiator valve", quantity: 2 }, { sku: "BOIL-30", name: "Combi boiler 30kW", quantity: 1 }] };
  const orders = [delivered, collected, third];

  it("totals each SKU over every order, in SKU order", () => {
    expect(skuTotals(orders)).toEqual([
      { sku: "BOIL-30", name: "Combi boiler 30kW", quantity: 2 },
      { sku: "BOOT-10", name: "Safety boots \u2013 size 10 \u2603", quantity: 2 },
      { sku: "PIPE-15", name: "Copper pipe 15mm x 3m", quantity: 14 },
      { sku: "VALVE-1", name: "Radiator valve", quantity: 8 },
    ]);
  });

  it("starts with the totals by SKU, then a section per order with its address or Collection and its lines; no prices", async () => {
    const { pages, text } = await read(batchPickingListPdf(orders, new Date("2026-11-25T16:00:00Z")));
    const first = pages[0]!;
    expect(first).toContain("BATCH PICKING LIST");
    expect(first).toContain("3 orders");
    expect(first).toContain("Printed 25 Nov 2026, 16:00: 26 items of 4 SKUs for 3 orders.");
    expect(first).toMatch(row("SKU", "Item", "Total qty", "Picked"));
    expect(first).toMatch(row("BOIL-30", "Combi boiler 30kW", "2"));
    expect(first).toMatch(row("BOOT-10", "Safety boots \u2013 size 10 ?", "2"));
    expect(first).toMatch(row("PIPE-15", "Copper pipe 15mm x 3m", "14"));
    expect(first).toMatch(row("VALVE-1", "Radiator valve", "8"));
    // The orders come after the totals, on a page of their own.
    expect(first).not.toContain("Order TC-");
    const sections = pages.slice(1).join("\n");
    const starts = positions(sections, ["Order TC-000101", "Order TC-000102", "Order TC-000103"]);
    expect(starts.every((p) => p >= 0)).toBe(true);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const [one, two, three] = [sections.slice(starts[0], starts[1]), sections.slice(starts[1], starts[2]), sections.slice(starts[2])];
    expect(one).toContain("Delivery: Standard delivery \u00b7 Jo Bloggs, Flat 2, 14 Kirkstall Road, Leeds, West Yorkshire, LS3 1LH");
    expect(one).toContain("Jo Bloggs \u00b7 phone 0113 496 0000 \u00b7 PO PO-7781");
    expect(one).toContain("Notes: Leave with no. 16 if out.");
    expect(one).toMatch(row("PIPE-15", "Copper pipe 15mm x 3m", "10"));
    expect(one).toContain("Total items: 13 (3 lines)");
    expect(two).toContain("Collection: Click & collect");
    expect(two).toContain("Sam Collector");
    expect(two).not.toContain("Kirkstall");
    expect(two).toMatch(row("PIPE-15", "Copper pipe 15mm x 3m", "4"));
    expect(two).toMatch(row("VALVE-1", "Radiator valve", "6"));
    expect(three).toMatch(row("VALVE-1", "Radiator valve", "2"));
    expect(three).toContain("Total items: 3 (2 lines)");
    expect(text).not.toMatch(PRICE);
  });

  it("with no orders says so", async () => {
    const { text } = await read(batchPickingListPdf([]));
    expect(text).toContain("No orders are awaiting dispatch.");
  });
});

describe("a 120-line order", () => {
  // Given in reverse, so the SKU sort is seen to work across pages too.
  const sku = (i: number) => `LINE-${String(i).padStart(3, "0")}`;
  const big: PickingOrder = { ...delivered, number: "TC-000120", lines: Array.from({ length: 120 }, (_, i) => ({ sku: sku(120 - i), name: `Compression fitting ${120 - i}`, quantity: ((120 - i) % 7) + 1 })) };

  it.each([
    { name: "picking list", make: () => pickingListPdf(big), header: row("SKU", "Item", "Qty", "Picked") },
    { name: "delivery note", make: () => deliveryNotePdf(big, shop), header: row("SKU", "Item", "Qty") },
    // Each line twice: in the totals by SKU, then in the order's section.
    { name: "batch picking list", make: () => batchPickingListPdf([big]), header: /SKU +Item +(Total qty|Qty) +Picked/, split: "Order TC-000120" },
  ])("$name: runs onto several pages, the header row on each, page numbers, every line once and in order", async ({ make, header, split }) => {
    const { pages, text } = await read(make());
    expect(pages.length).toBeGreaterThanOrEqual(3);
    pages.forEach((page, i) => expect(page).toContain(`Page ${i + 1} of ${pages.length}`));
    for (const page of pages.slice(1)) expect(page).toMatch(header);
    const parts = split ? [text.slice(0, text.indexOf(split)), text.slice(text.indexOf(split))] : [text];
    for (const part of parts) {
      const printed = [...part.matchAll(/^ *(LINE-\d{3}) +Compression fitting (\d+) +(\d+) *$/gm)];
      expect(printed.map((m) => m[1])).toEqual(Array.from({ length: 120 }, (_, i) => sku(i + 1)));
      for (const m of printed) {
        expect(m[1]).toBe(sku(Number(m[2])));
        expect(Number(m[3])).toBe((Number(m[2]) % 7) + 1);
      }
    }
    expect(text).toContain(`Total items: ${big.lines.reduce((n, l) => n + l.quantity, 0)} (120 lines)`);
    expect(text).not.toMatch(PRICE);
  });
});
