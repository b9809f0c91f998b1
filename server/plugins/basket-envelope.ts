import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { HttpError, ValidationError, summarise } from "../http-errors.ts";
import { schemaErrors } from "./errors.ts";
import { type BasketOwner, ensureGuestHash, guestHashOf } from "./guest.ts";
import { storeNothing } from "../lib/no-store.ts";

/** Who is asking: the signed-in user, else the guest (null when a guest has no cookie yet). */
export function readingOwner(request: FastifyRequest): BasketOwner | null {
  if (request.user) return { userId: request.user.id, prices: request.prices };
  const guestHash = guestHashOf(request);
  return guestHash ? { guestHash } : null;
}

/** Who is writing: the signed-in user, else the guest, issuing the guest cookie when needed. */
export function writingOwner(request: FastifyRequest, reply: FastifyReply, secureCookies: boolean): BasketOwner {
  return request.user ? { userId: request.user.id, prices: request.prices } : { guestHash: ensureGuestHash(request, reply, secureCookies) };
}

/**
 * The baskets' answer shape (section 7): `{success, message, errors, cart}` for
 * every answer, failures and schema errors included, so the page can always
 * show the basket as it now stands. Registers the plugin's hooks; returns `answer`.
 */
export function basketEnvelope<C>(
  app: FastifyInstance,
  options: { enabled: boolean; empty: C; cartOf: (owner: BasketOwner) => Promise<C> },
) {
  // With the basket switched off it does not exist.
  app.addHook("onRequest", async (_request, reply) => {
    if (!options.enabled) return reply.code(404).send({ message: "Not Found" });
  });
  storeNothing(app, "private, no-store");
  const current = async (owner: BasketOwner | null) => (owner ? options.cartOf(owner) : options.empty);

  app.setErrorHandler(async (error, request, reply) => {
    const errors = schemaErrors(error);
    if (!errors) throw error;
    return reply.code(422).send({ success: false, message: summarise(errors), errors, cart: await current(readingOwner(request)) });
  });

  /** `message` may be worked out after the work succeeds (e.g. a reorder's line-by-line report). */
  return async function answer(reply: FastifyReply, owner: BasketOwner | null, message: string | (() => string), work: () => Promise<C>) {
    try {
      const cart = await work();
      return { success: true, message: typeof message === "function" ? message() : message, errors: {}, cart };
    } catch (error) {
      if (!(error instanceof ValidationError) && !(error instanceof HttpError)) throw error;
      const errors = error instanceof ValidationError ? error.errors : {};
      return reply.code(error.statusCode).send({ success: false, message: error.message, errors, cart: await current(owner) });
    }
  };
}
