import { describe, expect, it } from "vitest";
import { testShopForFile } from "../../test/app.ts";
import { TestBrowser } from "../../test/browser.ts";

const shop = testShopForFile();

let n = 0;
async function signedUp(ip?: string) {
  n += 1;
  const browser = new TestBrowser(shop().app, ip);
  const body = {
    firstname: "Jo",
    lastname: "Bloggs",
    email: `jo.${n}.${Date.now()}@example.co.uk`,
    password: "a long enough secret",
    password_confirmation: "a long enough secret",
  };
  await browser.csrf();
  const res = await browser.post("/api/auth/register", body);
  expect(res.statusCode).toBe(201);
  return { browser, body, token: res.json().token as string };
}

const home = {
  firstname: "Jo",
  lastname: "Bloggs",
  line1: "10 Downing Street",
  town: "London",
  postcode: "sw1a2aa",
};

describe("the account API needs sign-in", () => {
  it.each([
    ["GET", "/api/account"],
    ["GET", "/api/account/addresses"],
    ["GET", "/api/account/newsletter"],
  ] as const)("%s %s answers 401 for a guest", async (method, url) => {
    const res = await shop().app.inject({ method, url });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: "Unauthenticated." });
  });
});

describe("profile", () => {
  it("reads and updates the profile, never storing unknown fields", async () => {
    const { browser } = await signedUp();
    const res = await browser.put("/api/account", { firstname: " Joanna ", lastname: "Bloggs", phone: "07700 900123", is_trade: true, trade_account_id: 7, id: 1 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ firstname: "Joanna", name: "Joanna Bloggs", phone: "07700 900123", is_trade: false, trade_account_id: null });
    expect(res.headers["cache-control"]).toBe("private, no-store");
    expect((await browser.get("/api/account")).json().data.firstname).toBe("Joanna");
  });

  it("changes the email only with the current password", async () => {
    const { browser, body } = await signedUp();
    const newEmail = `new.${Date.now()}@example.co.uk`;
    const without = await browser.put("/api/account", { firstname: "Jo", lastname: "Bloggs", email: newEmail });
    expect(without.statusCode).toBe(422);
    expect(without.json().errors.current_password).toEqual(["Enter your current password to change your email address."]);
    const wrong = await browser.put("/api/account", { firstname: "Jo", lastname: "Bloggs", email: newEmail, current_password: "nope nope nope" });
    expect(wrong.json().errors.current_password).toEqual(["The current password is incorrect."]);
    const right = await browser.put("/api/account", { firstname: "Jo", lastname: "Bloggs", email: newEmail, current_password: body.password });
    expect(right.statusCode).toBe(200);
    expect(right.json().data.email).toBe(newEmail);
  });

  it("refuses an email another account uses", async () => {
    const a = await signedUp();
    const b = await signedUp();
    const res = await b.browser.put("/api/account", { firstname: "Jo", lastname: "Bloggs", email: a.body.email, current_password: b.body.password });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.email).toEqual(["Another account already uses this email address."]);
  });
});

describe("password change", () => {
  it("checks the current password, keeps this session and signs out the others", async () => {
    const { browser, body, token } = await signedUp();
    const other = new TestBrowser(shop().app, "203.0.113.77");
    await other.csrf();
    const otherLogin = await other.post("/api/auth/login", { email: body.email, password: body.password });
    expect(otherLogin.statusCode).toBe(200);

    const wrong = await browser.put("/api/account/password", { current_password: "wrong wrong", password: "a new long secret", password_confirmation: "a new long secret" });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.current_password).toEqual(["The current password is incorrect."]);
    const common = await browser.put("/api/account/password", { current_password: body.password, password: "password123", password_confirmation: "password123" });
    expect(common.statusCode).toBe(422);

    const ok = await browser.put("/api/account/password", { current_password: body.password, password: "a new long secret", password_confirmation: "a new long secret" });
    expect(ok.statusCode).toBe(200);
    expect((await browser.get("/api/user")).statusCode).toBe(200);
    expect((await other.get("/api/user")).statusCode).toBe(204);
    expect((await shop().app.inject({ method: "GET", url: "/api/user", headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(200);
  });
});

describe("addresses", () => {
  it("adds a UK address with a normalised postcode; the first becomes both defaults", async () => {
    const { browser } = await signedUp();
    const res = await browser.post("/api/account/addresses", home);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ postcode: "SW1A 2AA", is_default_delivery: true, is_default_billing: true, company: "", line2: "" });
  });

  it.each(["", "ABC", "SW1A 2AAA", "12345", "<script>"])("refuses the postcode %j", async (postcode) => {
    const { browser } = await signedUp();
    const res = await browser.post("/api/account/addresses", { ...home, postcode });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.postcode).toEqual(["Enter a valid UK postcode."]);
  });

  it("refuses missing lines with a message per field", async () => {
    const { browser } = await signedUp();
    const res = await browser.post("/api/account/addresses", { postcode: "M1 1AE" });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(["firstname", "lastname", "line1", "town"]);
  });

  it("moves the default to another address, keeping one of each", async () => {
    const { browser } = await signedUp();
    const first = (await browser.post("/api/account/addresses", home)).json().data;
    const second = (await browser.post("/api/account/addresses", { ...home, line1: "1 Site Road", postcode: "M1 1AE", is_default_delivery: true })).json().data;
    expect(second).toMatchObject({ is_default_delivery: true, is_default_billing: false });
    const list = (await browser.get("/api/account/addresses")).json().data as { id: number; is_default_delivery: boolean; is_default_billing: boolean }[];
    expect(list.find((a) => a.id === first.id)).toMatchObject({ is_default_delivery: false, is_default_billing: true });

    const edited = await browser.put(`/api/account/addresses/${first.id}`, { ...home, line1: "11 Downing Street", is_default_delivery: true });
    expect(edited.json().data).toMatchObject({ line1: "11 Downing Street", is_default_delivery: true, is_default_billing: true });
    const after = (await browser.get("/api/account/addresses")).json().data as { id: number; is_default_delivery: boolean }[];
    expect(after.filter((a) => a.is_default_delivery)).toHaveLength(1);

    // Deleting the default hands it to the oldest remaining address.
    expect((await browser.delete(`/api/account/addresses/${first.id}`)).statusCode).toBe(204);
    const remaining = (await browser.get("/api/account/addresses")).json().data;
    expect(remaining).toHaveLength(1);
    expect(remaining[0]).toMatchObject({ id: second.id, is_default_delivery: true, is_default_billing: true });
  });

  it("never shows or changes another user's address: those answer 404", async () => {
    const a = await signedUp();
    const b = await signedUp();
    const mine = (await a.browser.post("/api/account/addresses", home)).json().data;
    expect((await b.browser.get("/api/account/addresses")).json().data).toEqual([]);
    const put = await b.browser.put(`/api/account/addresses/${mine.id}`, { ...home, line1: "Stolen" });
    expect(put.statusCode).toBe(404);
    const del = await b.browser.delete(`/api/account/addresses/${mine.id}`);
    expect(del.statusCode).toBe(404);
    const still = (await a.browser.get("/api/account/addresses")).json().data;
    expect(still).toEqual([mine]);
  });

  it("answers 404 for an address id that does not exist and 422 for one that is not a number", async () => {
    const { browser } = await signedUp();
    expect((await browser.delete("/api/account/addresses/999999")).statusCode).toBe(404);
    expect((await browser.delete("/api/account/addresses/abc")).statusCode).toBe(422);
  });
});

describe("newsletter", () => {
  it("reads and saves the subscription and its topics", async () => {
    const { browser } = await signedUp();
    expect((await browser.get("/api/account/newsletter")).json().data).toEqual({ subscribed: false, topics: [] });
    const res = await browser.put("/api/account/newsletter", { subscribed: true, topics: ["offers", "hire", "offers"] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ subscribed: true, topics: ["offers", "hire"] });
    const bad = await browser.put("/api/account/newsletter", { subscribed: true, topics: ["spam"] });
    expect(bad.statusCode).toBe(422);
  });
});
