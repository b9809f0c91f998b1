import { and, asc, count, eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError } from "../../http-errors.ts";
import type { UserJson } from "../auth/contract.ts";
import { verifyPassword } from "../auth/passwords.ts";
import { type User, users } from "../auth/schema.ts";
import { toUserJson } from "../auth/service.ts";
import type { AddressInput, AddressJson, NewsletterJson } from "./contract.ts";
import { type Address, addresses } from "./schema.ts";

export const MAX_ADDRESSES = 50;

export function toAddressJson(a: Address): AddressJson {
  return {
    id: a.id,
    firstname: a.firstname,
    lastname: a.lastname,
    company: a.company,
    line1: a.line1,
    line2: a.line2,
    town: a.town,
    county: a.county,
    postcode: a.postcode,
    phone: a.phone,
    is_default_delivery: a.isDefaultDelivery,
    is_default_billing: a.isDefaultBilling,
  };
}

function addressValues(input: AddressInput) {
  return {
    firstname: input.firstname,
    lastname: input.lastname,
    company: input.company,
    line1: input.line1,
    line2: input.line2,
    town: input.town,
    county: input.county,
    postcode: input.postcode,
    phone: input.phone,
  };
}

const notFound = () => new HttpError(404, "Address not found.");

/**
 * The account area. Every read and write names the user: a row of another
 * user is not found, never shown or changed.
 */
export function createAccountService(db: Db) {
  async function userById(userId: number): Promise<User> {
    const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
    if (!user) throw new HttpError(404, "Account not found.");
    return user;
  }

  /** Clears the other defaults before this one takes them (the unique indexes hold the rule). */
  async function takeDefaults(tx: Db, userId: number, input: { is_default_delivery: boolean; is_default_billing: boolean }) {
    if (input.is_default_delivery) await tx.update(addresses).set({ isDefaultDelivery: false }).where(eq(addresses.userId, userId));
    if (input.is_default_billing) await tx.update(addresses).set({ isDefaultBilling: false }).where(eq(addresses.userId, userId));
  }

  return {
    async profile(userId: number): Promise<UserJson> {
      return toUserJson(await userById(userId));
    },

    async updateProfile(
      userId: number,
      input: { firstname: string; lastname: string; phone: string; email?: string; current_password?: string },
    ): Promise<UserJson> {
      const user = await userById(userId);
      const changes: Partial<typeof users.$inferInsert> = {
        firstname: input.firstname,
        lastname: input.lastname,
        phone: input.phone,
        updatedAt: new Date(),
      };
      if (input.email && input.email !== user.email.toLowerCase()) {
        if (!input.current_password) throw new ValidationError({ current_password: ["Enter your current password to change your email address."] });
        if (!(await verifyPassword(user.passwordHash, input.current_password))) {
          throw new ValidationError({ current_password: ["The current password is incorrect."] });
        }
        changes.email = input.email;
      }
      try {
        const [updated] = await db.update(users).set(changes).where(eq(users.id, userId)).returning();
        return toUserJson(updated!);
      } catch (error) {
        const e = error as { code?: string; cause?: { code?: string } };
        if (e.code === "23505" || e.cause?.code === "23505") {
          throw new ValidationError({ email: ["Another account already uses this email address."] });
        }
        throw error;
      }
    },

    async listAddresses(userId: number): Promise<AddressJson[]> {
      const rows = await db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(asc(addresses.id)).limit(MAX_ADDRESSES);
      return rows.map(toAddressJson);
    },

    async addAddress(userId: number, input: AddressInput): Promise<AddressJson> {
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        // Serialise a user's address writes so the count and defaults stay right.
        await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
        const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(addresses).where(eq(addresses.userId, userId));
        if (n >= MAX_ADDRESSES) throw new ValidationError({ address: [`You can keep up to ${MAX_ADDRESSES} addresses.`] });
        // The first address becomes the default for both.
        const first = n === 0;
        const defaults = { is_default_delivery: first || input.is_default_delivery, is_default_billing: first || input.is_default_billing };
        await takeDefaults(tx, userId, defaults);
        const [row] = await tx
          .insert(addresses)
          .values({ userId, ...addressValues(input), isDefaultDelivery: defaults.is_default_delivery, isDefaultBilling: defaults.is_default_billing })
          .returning();
        return toAddressJson(row!);
      });
    },

    async updateAddress(userId: number, id: number, input: AddressInput): Promise<AddressJson> {
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [current] = await tx
          .select()
          .from(addresses)
          .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
          .for("update");
        if (!current) throw notFound();
        // A default is moved by making another address the default, not by unticking it.
        const defaults = {
          is_default_delivery: current.isDefaultDelivery || input.is_default_delivery,
          is_default_billing: current.isDefaultBilling || input.is_default_billing,
        };
        await takeDefaults(tx, userId, { is_default_delivery: input.is_default_delivery, is_default_billing: input.is_default_billing });
        const [row] = await tx
          .update(addresses)
          .set({ ...addressValues(input), isDefaultDelivery: defaults.is_default_delivery, isDefaultBilling: defaults.is_default_billing, updatedAt: new Date() })
          .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
          .returning();
        return toAddressJson(row!);
      });
    },

    async deleteAddress(userId: number, id: number): Promise<void> {
      await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [gone] = await tx
          .delete(addresses)
          .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
          .returning();
        if (!gone) throw notFound();
        // A deleted default passes to the oldest remaining address.
        if (gone.isDefaultDelivery || gone.isDefaultBilling) {
          const [next] = await tx.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(asc(addresses.id)).limit(1);
          if (next) {
            await tx
              .update(addresses)
              .set({
                isDefaultDelivery: next.isDefaultDelivery || gone.isDefaultDelivery,
                isDefaultBilling: next.isDefaultBilling || gone.isDefaultBilling,
              })
              .where(eq(addresses.id, next.id));
          }
        }
      });
    },

    async newsletter(userId: number): Promise<NewsletterJson> {
      const user = await userById(userId);
      return { subscribed: user.newsletterSubscribed, topics: user.newsletterTopics as NewsletterJson["topics"] };
    },

    async setNewsletter(userId: number, input: NewsletterJson): Promise<NewsletterJson> {
      const topics = [...new Set(input.topics)];
      const [user] = await db
        .update(users)
        .set({ newsletterSubscribed: input.subscribed, newsletterTopics: topics, updatedAt: new Date() })
        .where(eq(users.id, userId))
        .returning();
      return { subscribed: user!.newsletterSubscribed, topics: user!.newsletterTopics as NewsletterJson["topics"] };
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
