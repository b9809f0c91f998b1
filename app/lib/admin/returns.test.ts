import { describe, expect, it } from "vitest";
import { penceOf, refundDue, refundRoute, returnsHref } from "./returns.ts";

describe("the returns desk's links", () => {
  it("filter the returns list as its tabs and search do", () => {
    expect(returnsHref()).toBe("/admin/returns");
    expect(returnsHref({ status: "requested" })).toBe("/admin/returns?status=requested");
    expect(returnsHref({ status: "received", overdue: true })).toBe("/admin/returns?status=received&overdue=1");
    expect(returnsHref({ q: "TC-000123" })).toBe("/admin/returns?q=TC-000123");
  });
});

describe("the days left to refund", () => {
  it("counts down, is due today, then overdue in plain words", () => {
    expect(refundDue(14)).toEqual({ text: "14 days left to refund", overdue: false });
    expect(refundDue(1)).toEqual({ text: "1 day left to refund", overdue: false });
    expect(refundDue(0)).toEqual({ text: "Refund due today", overdue: false });
    expect(refundDue(-1)).toEqual({ text: "Overdue by 1 day", overdue: true });
    expect(refundDue(-2)).toEqual({ text: "Overdue by 2 days", overdue: true });
  });
});

describe("how a refund goes back", () => {
  it("follows how the order was paid", () => {
    expect(refundRoute("card", "Card")).toMatch(/^To the card/);
    expect(refundRoute("pay_on_account", "Pay on account")).toMatch(/credit note/);
    expect(refundRoute("bank_transfer", "Bank transfer")).toBe("By hand: the customer paid by bank transfer, so pay it back the same way, then record it here.");
  });
});

describe("pounds as typed", () => {
  it("become whole pence, blank is none, anything else is not a number", () => {
    expect(penceOf("12.50")).toBe(1250);
    expect(penceOf("£1,012.5")).toBe(101250);
    expect(penceOf(" 7 ")).toBe(700);
    expect(penceOf("0.07")).toBe(7);
    expect(penceOf("")).toBeNull();
    expect(penceOf("12.345")).toBeNaN();
    expect(penceOf("-3")).toBeNaN();
    expect(penceOf("ten")).toBeNaN();
  });
});
