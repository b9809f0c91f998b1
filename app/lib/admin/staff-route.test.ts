// The start of every back-office loader and action.
import { RouterContextProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { type AppContext, appContext } from "#app-context";
import type { StaffActor } from "../../../server/modules/staff/actor.ts";
import { idParam, refusalOr } from "./access.ts";
import { staffPost, staffScreen } from "./staff-route.ts";

const member: StaffActor = { staffId: 7, name: "Sam", email: "sam@shop.test", role: "warehouse", via: "screen" };

function contextWith(staff: StaffActor | null) {
  const context = new RouterContextProvider();
  // Only what the guard reads: the member signed in.
  context.set(appContext, { staff } as AppContext);
  return context;
}

function post(origin: string) {
  const body = new URLSearchParams({ intent: "count" });
  return new Request("https://shop.test/admin/stock", { method: "POST", headers: { origin, "content-type": "application/x-www-form-urlencoded" }, body });
}

async function refusal(run: () => unknown): Promise<Response> {
  try {
    await run();
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
  throw new Error("not refused");
}

describe("staffScreen", () => {
  it("gives the screen the services and the member who holds the permission", () => {
    const { app, actor } = staffScreen(contextWith(member), new Request("https://shop.test/admin/stock"), "stock.count");
    expect(actor).toBe(member);
    expect(app.staff).toBe(member);
  });

  it("sends a visitor to the sign-in, and refuses a member whose role lacks the permission", async () => {
    const away = await refusal(() => staffScreen(contextWith(null), new Request("https://shop.test/admin/stock"), "stock.count"));
    expect(away.headers.get("location")).toBe("/admin/login?redirect=%2Fadmin%2Fstock");
    expect((await refusal(() => staffScreen(contextWith(member), new Request("https://shop.test/admin/staff"), "staff.manage"))).status).toBe(403);
  });
});

describe("staffPost", () => {
  it("reads the form of a post from this site", async () => {
    const { actor, form } = await staffPost(contextWith(member), post("https://shop.test"), "stock.count");
    expect(actor).toBe(member);
    expect(form.get("intent")).toBe("count");
  });

  it("refuses a post from another site before anything else", async () => {
    expect((await refusal(() => staffPost(contextWith(null), post("https://elsewhere.test"), "stock.count"))).status).toBe(403);
  });
});

describe("refusalOr", () => {
  it("gives a refused list's words: every field's error in one line, else the message", () => {
    const refused = refusalOr({ statusCode: 422, message: "Check the filters.", errors: { from: ["Not a date."], to: ["Before the start."] } });
    expect(refused).toEqual({ message: "Check the filters.", errors: { from: ["Not a date."], to: ["Before the start."] }, text: "Not a date. Before the start." });
    expect(refusalOr({ statusCode: 422, message: "That page has gone." }).text).toBe("That page has gone.");
  });

  it("throws anything else as it was", () => {
    const missing = { statusCode: 404, message: "No such order." };
    expect(() => refusalOr(missing)).toThrow(expect.objectContaining(missing));
  });
});

describe("idParam", () => {
  it("reads a record's number from the address, and is the screen's Not Found for anything else", async () => {
    expect(idParam("12", "No such customer.")).toBe(12);
    const missing = await refusal(() => idParam("12abc", "No such customer."));
    expect([missing.status, await missing.text()]).toEqual([404, "No such customer."]);
  });
});
