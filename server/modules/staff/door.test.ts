import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import type { Db } from "../../db/client.ts";
import { registerStaffAuth } from "../../plugins/staff-auth.ts";
import type { StaffActor } from "./actor.ts";
import { refusedAtDoor, staffDoor } from "./door.ts";

const member = (role: StaffActor["role"], via: StaffActor["via"] = "api"): StaffActor => ({ staffId: 1, name: "M", email: "m@example.com", role, via, ...(via === "api" ? { sessionId: 9 } : {}) });

describe("the door of a back-office write", () => {
  it("lets in a role with the permission, or with any one of several, and refuses the rest", () => {
    expect(refusedAtDoor(staffDoor("orders.note").staffDoor, member("sales"))).toBeNull();
    expect(refusedAtDoor(staffDoor("staff.manage").staffDoor, member("sales"))).toBe("Your role does not allow this.");
    expect(refusedAtDoor(staffDoor(["orders.mark_paid", "orders.fulfil"]).staffDoor, member("warehouse"))).toBeNull();
    expect(refusedAtDoor(staffDoor(["trade.manage", "invoices.manage"]).staffDoor, member("warehouse"))).toBe("Your role does not allow this.");
    expect(refusedAtDoor(staffDoor("member").staffDoor, member("hire"))).toBeNull();
  });

  it("refuses an API token where only a signed-in member will do, whatever its role", () => {
    const door = staffDoor("member", { sessionOnly: true }).staffDoor;
    expect(refusedAtDoor(door, member("owner", "token"))).toBe("This needs a signed-in member of staff, not an API token.");
    expect(refusedAtDoor(door, member("owner"))).toBeNull();
    expect(refusedAtDoor(door, member("owner", "cli"))).toBeNull();
  });

  it("stops the shop starting with a back-office write that declares no door", async () => {
    const app = Fastify();
    // No request is made: the database is never asked.
    registerStaffAuth(app, { db: {} as Db, secureCookies: false, publicOrigin: "http://localhost" });
    app.get("/api/admin/reading", async () => ({}));
    app.post("/api/admin/auth/login", async () => ({}));
    app.post("/api/admin/declared", { config: staffDoor("orders.note") }, async () => ({}));
    expect(() => app.post("/api/admin/forgotten", async () => ({}))).toThrow("POST /api/admin/forgotten declares no staffDoor");
    await app.close();
  });
});
