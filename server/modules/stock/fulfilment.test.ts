import { describe, expect, it } from "vitest";
import { planCollection, planFulfilment, sourceOrder, transfersFor } from "./fulfilment.ts";

// Three branches: Leeds the central warehouse, York 20 miles away, Harrogate 12.
const leeds = { id: 1, isDefault: true, miles: 30 };
const york = { id: 2, isDefault: false, miles: 20 };
const harrogate = { id: 3, isDefault: false, miles: 12 };
const sources = [leeds, york, harrogate];
const held = (rows: [variantId: number, branchId: number, stock: number][]) => rows.map(([variantId, branchId, stock]) => ({ variantId, branchId, stock }));

describe("the fulfilment rule", () => {
  it("sends the whole order from the nearest branch that holds every line", () => {
    const stock = held([
      [10, 1, 5],
      [11, 1, 5],
      [10, 2, 5],
      [11, 2, 5],
      [10, 3, 5],
    ]);
    // Harrogate is nearest but lacks variant 11: York, the next nearest, has both.
    expect(planFulfilment([{ variantId: 10, quantity: 2 }, { variantId: 11, quantity: 1 }], sources, stock)).toEqual({
      ok: true,
      branchId: 2,
      takes: [
        { variantId: 10, branchId: 2, quantity: 2 },
        { variantId: 11, branchId: 2, quantity: 1 },
      ],
    });
  });

  it("uses the central warehouse first when the address cannot be placed", () => {
    const unplaced = sources.map((s) => ({ ...s, miles: null }));
    expect(sourceOrder(unplaced)[0]).toEqual({ ...leeds, miles: null });
    const stock = held([
      [10, 1, 3],
      [10, 3, 3],
    ]);
    expect(planFulfilment([{ variantId: 10, quantity: 3 }], unplaced, stock)).toMatchObject({ ok: true, branchId: 1 });
    // Placed, the nearer Harrogate sends it.
    expect(planFulfilment([{ variantId: 10, quantity: 3 }], sources, stock)).toMatchObject({ ok: true, branchId: 3 });
  });

  it("splits an order no one branch holds, each line from the nearest branches that have it", () => {
    const stock = held([
      [10, 3, 2],
      [10, 2, 4],
      [11, 1, 1],
    ]);
    const plan = planFulfilment([{ variantId: 10, quantity: 5 }, { variantId: 11, quantity: 1 }], sources, stock, "split");
    expect(plan).toEqual({
      ok: true,
      branchId: null,
      takes: [
        { variantId: 10, branchId: 3, quantity: 2 },
        { variantId: 10, branchId: 2, quantity: 3 },
        { variantId: 11, branchId: 1, quantity: 1 },
      ],
    });
  });

  it("refuses, naming the lines, what all the branches together cannot cover, or what no one branch holds when the merchant sends orders whole", () => {
    const stock = held([
      [10, 3, 2],
      [10, 2, 2],
      [11, 1, 1],
    ]);
    expect(planFulfilment([{ variantId: 10, quantity: 5 }, { variantId: 11, quantity: 1 }], sources, stock, "split")).toEqual({ ok: false, short: [{ variantId: 10, available: 4 }] });
    // Whole: Harrogate, the first choice, lacks both.
    expect(planFulfilment([{ variantId: 10, quantity: 2 }, { variantId: 11, quantity: 1 }], sources, stock, "whole")).toEqual({ ok: false, short: [{ variantId: 11, available: 0 }] });
    expect(planFulfilment([{ variantId: 10, quantity: 1 }], [], stock)).toEqual({ ok: false, short: [{ variantId: 10, available: 0 }] });
  });
});

describe("a collection", () => {
  it("takes every line from its branch, or names the lines it cannot supply with what it has", () => {
    const stock = held([
      [10, 2, 3],
      [11, 1, 9],
    ]);
    expect(planCollection([{ variantId: 10, quantity: 3 }], 2, stock)).toEqual({ ok: true, branchId: 2, takes: [{ variantId: 10, branchId: 2, quantity: 3 }] });
    expect(planCollection([{ variantId: 10, quantity: 4 }, { variantId: 11, quantity: 1 }], 2, stock)).toEqual({
      ok: false,
      short: [
        { variantId: 10, available: 3 },
        { variantId: 11, available: 0 },
      ],
    });
  });

  it("fetches what its branch lacks from the branches nearest to it, as transfers, and is short only when all of them together are", () => {
    // Collecting at York (2): Harrogate (3) is 8 miles from York, Leeds (1) 24.
    const fromYork = [
      { id: 1, isDefault: true, miles: 24 },
      { id: 3, isDefault: false, miles: 8 },
    ];
    const stock = held([
      [10, 2, 1],
      [10, 3, 2],
      [10, 1, 5],
      [11, 1, 1],
    ]);
    const plan = planCollection(
      [
        { variantId: 10, quantity: 4 },
        { variantId: 11, quantity: 1 },
      ],
      2,
      stock,
      fromYork,
    );
    expect(plan).toEqual({
      ok: true,
      branchId: 2,
      takes: [
        { variantId: 10, branchId: 2, quantity: 1 },
        { variantId: 10, branchId: 3, quantity: 2 },
        { variantId: 10, branchId: 1, quantity: 1 },
        { variantId: 11, branchId: 1, quantity: 1 },
      ],
    });
    expect(transfersFor(plan, 2)).toEqual(
      new Map([
        [3, [{ variantId: 10, branchId: 3, quantity: 2 }]],
        [
          1,
          [
            { variantId: 10, branchId: 1, quantity: 1 },
            { variantId: 11, branchId: 1, quantity: 1 },
          ],
        ],
      ]),
    );
    // Everything at York: no transfer.
    expect(transfersFor(planCollection([{ variantId: 10, quantity: 1 }], 2, stock, fromYork), 2).size).toBe(0);
    // Nine wanted, eight in all: short, with the eight named.
    expect(planCollection([{ variantId: 10, quantity: 9 }], 2, stock, fromYork)).toEqual({ ok: false, short: [{ variantId: 10, available: 8 }] });
  });
});
