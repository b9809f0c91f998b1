// The seven actors of the authorisation matrices over every API route
// (server/access.test.ts) and every screen (server/screens-access.test.ts):
// a guest, customers A and B, a trade buyer, owner and accounts user of one
// company, and the owner of another company.
import type { Person, tradeFixtures } from "../modules/trade/test-fixtures.ts";
import type { TestBrowser } from "./browser.ts";

export type Actor = "guest" | "customer A" | "customer B" | "buyer" | "owner" | "accounts" | "other owner";
export const ACTORS: Actor[] = ["guest", "customer A", "customer B", "buyer", "owner", "accounts", "other owner"];
export type SignedInActor = Exclude<Actor, "guest">;

/** The same outcome for every actor. */
export const all = <T>(outcome: T): Record<Actor, T> => Object.fromEntries(ACTORS.map((a) => [a, outcome])) as Record<Actor, T>;

/**
 * Signs up customers A and B (`names.a`, `names.b` as first names) and makes two
 * approved companies with a user in each role; each actor keeps its own
 * browser, signed in once. The guest's browser holds only the request-forgery cookie.
 */
export async function signInActors(fixtures: ReturnType<typeof tradeFixtures>, names: { a: string; b: string; company: string; otherCompany: string }) {
  const company = await fixtures.company(names.company);
  const other = await fixtures.company(names.otherCompany);
  const people: Record<SignedInActor, Person> = {
    "customer A": await fixtures.signedUp(names.a),
    "customer B": await fixtures.signedUp(names.b),
    buyer: company.buyer,
    owner: company.owner,
    accounts: company.accounts,
    "other owner": other.owner,
  };
  const as = { guest: await fixtures.guest(), ...Object.fromEntries(Object.entries(people).map(([k, p]) => [k, p.browser])) } as Record<Actor, TestBrowser>;
  return { people, as, company, other };
}

/** A calendar day `n` days from today (UTC), as `YYYY-MM-DD`. */
export const day = (n: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};
/** An address-book entry on `line1`. */
export const address = (line1: string) => ({ firstname: "Alma", lastname: "Ashdown", line1, town: "Leeds", postcode: "LS1 4AP", phone: "0113 496 0999" });
/** A checkout by bank transfer, delivered to `line1`. */
export const checkoutBody = (email: string, line1: string) => ({
  email,
  phone: "0113 496 0000",
  delivery_method: "standard",
  delivery_address: { name: "Test Recipient", line_1: line1, town: "Leeds", postcode: "ls1 1ab" },
  payment_method: "bank_transfer",
});
