import { and, eq, ne } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import { emailField, nameField } from "../auth/contract.ts";
import { users } from "../auth/schema.ts";
import { type StaffActor, authorize } from "../staff/actor.ts";
import { type AddressInput, addressBody } from "./contract.ts";
import { addresses } from "./schema.ts";
import { createAccountService } from "./service.ts";

export const STAFF_NOTE_MAX = 2000;

/** What the customers desk may change on a registered customer (issue 34); each field optional, unknown ones ignored. */
export const customerPatch = z.object({
  firstname: nameField("first name").optional(),
  lastname: nameField("last name").optional(),
  phone: z
    .string()
    .trim()
    .max(30, "The phone number is too long.")
    .regex(/^[0-9+() -]*$/, "Enter a valid phone number.")
    .optional(),
  email: emailField.optional(),
  staff_note: z.string().trim().max(STAFF_NOTE_MAX, `The staff note may be at most ${STAFF_NOTE_MAX} characters.`).optional(),
});
export type CustomerPatch = z.infer<typeof customerPatch>;
export { addressBody as customerAddressBody };

type User = typeof users.$inferSelect;
type Address = typeof addresses.$inferSelect;

/** The customer's details as the audit log shows them: the shop's words, not column names. */
function inWords(u: Pick<User, "firstname" | "lastname" | "phone" | "email" | "staffNote">) {
  return { name: `${u.firstname} ${u.lastname}`.trim(), phone: u.phone, email: u.email, staff_note: u.staffNote };
}

/** An address on one line, as the audit log shows it. */
export function addressLine(a: Pick<Address, "firstname" | "lastname" | "company" | "line1" | "line2" | "town" | "postcode">): string {
  return [`${a.firstname} ${a.lastname}`.trim(), a.company, a.line1, a.line2, a.town, a.postcode].filter(Boolean).join(", ");
}

/**
 * The customers desk's edits (issue 34), each needing `customers.edit` and
 * audited in its transaction with what changed before and after: a
 * registered customer's name, phone, email (unique: the clash is named) and
 * the staff's note; their address book through the account's own rules.
 */
export function createAdminCustomerEdits(db: Db) {
  async function lockCustomer(tx: Db, id: number): Promise<User> {
    const [user] = await tx.select().from(users).where(eq(users.id, id)).for("update");
    if (!user) throw new HttpError(404, `No customer #${id}.`);
    return user;
  }

  /** Runs an address change with the account's own rules inside this transaction (a savepoint), and audits it. */
  async function onAddresses<T>(actor: StaffActor, id: number, work: (tx: Db) => Promise<{ result: T; action: string; before: string | null; after: string | null }>): Promise<T> {
    authorize(actor, "customers.edit");
    return db.transaction(async (t) => {
      const tx = t as unknown as Db;
      await lockCustomer(tx, id);
      const done = await work(tx);
      await recordAudit(tx, actor, { action: done.action, entity: "customer", entityId: id, before: done.before === null ? null : { address: done.before }, after: done.after === null ? null : { address: done.after } });
      return done.result;
    });
  }

  async function addressOf(tx: Db, userId: number, addressId: number): Promise<Address> {
    const [row] = await tx.select().from(addresses).where(and(eq(addresses.id, addressId), eq(addresses.userId, userId)));
    if (!row) throw new HttpError(404, "That address is not in this customer's address book.");
    return row;
  }

  return {
    async update(actor: StaffActor, id: number, patch: CustomerPatch): Promise<void> {
      authorize(actor, "customers.edit");
      try {
        await db.transaction(async (t) => {
          const tx = t as unknown as Db;
          const before = await lockCustomer(tx, id);
          if (patch.email !== undefined && patch.email.toLowerCase() !== before.email.toLowerCase()) {
            const [taken] = await tx.select({ id: users.id, firstname: users.firstname, lastname: users.lastname }).from(users).where(and(eq(users.email, patch.email), ne(users.id, id))).limit(1);
            if (taken) throw new ValidationError({ email: [`Customer #${taken.id} (${`${taken.firstname} ${taken.lastname}`.trim()}) already uses ${patch.email}.`] });
          }
          const set = {
            ...(patch.firstname !== undefined ? { firstname: patch.firstname } : {}),
            ...(patch.lastname !== undefined ? { lastname: patch.lastname } : {}),
            ...(patch.phone !== undefined ? { phone: patch.phone } : {}),
            ...(patch.email !== undefined ? { email: patch.email } : {}),
            ...(patch.staff_note !== undefined ? { staffNote: patch.staff_note } : {}),
          };
          const after = { ...before, ...set };
          const was = inWords(before);
          const now = inWords(after);
          const changed = (Object.keys(now) as (keyof typeof now)[]).filter((k) => String(was[k]) !== String(now[k]));
          if (changed.length === 0) return;
          await tx.update(users).set({ ...set, updatedAt: new Date() }).where(eq(users.id, id));
          await recordAudit(tx, actor, {
            action: "customer.updated",
            entity: "customer",
            entityId: id,
            before: Object.fromEntries(changed.map((k) => [k, was[k]])),
            after: Object.fromEntries(changed.map((k) => [k, now[k]])),
          });
        });
      } catch (error) {
        // Another change took the email between the check and the write.
        if (isUniqueViolation(error)) throw new ValidationError({ email: [`Another customer already uses ${patch.email}.`] });
        throw error;
      }
    },

    addAddress: (actor: StaffActor, id: number, input: AddressInput) =>
      onAddresses(actor, id, async (tx) => {
        const made = await createAccountService(tx).addAddress(id, input);
        return { result: made, action: "customer.address_added", before: null, after: addressLine(made) };
      }),

    updateAddress: (actor: StaffActor, id: number, addressId: number, input: AddressInput) =>
      onAddresses(actor, id, async (tx) => {
        const before = await addressOf(tx, id, addressId);
        const made = await createAccountService(tx).updateAddress(id, addressId, input);
        return { result: made, action: "customer.address_changed", before: addressLine(before), after: addressLine(made) };
      }),

    deleteAddress: (actor: StaffActor, id: number, addressId: number) =>
      onAddresses(actor, id, async (tx) => {
        const before = await addressOf(tx, id, addressId);
        await createAccountService(tx).deleteAddress(id, addressId);
        return { result: undefined, action: "customer.address_removed", before: addressLine(before), after: null };
      }),
  };
}
