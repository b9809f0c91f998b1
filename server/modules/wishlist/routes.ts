import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ValidationError } from "../../http-errors.ts";
import { signedIn } from "../auth/signed-in.ts";
import type { WishlistService } from "./service.ts";
import { storeNothing } from "../../lib/no-store.ts";

const userId = (request: FastifyRequest): number => signedIn(request).id;

/** `product_id` must be a whole number; anything else is "Invalid product ID." (section 5). */
function productId(value: unknown): number {
  const n = typeof value === "string" && /^\d{1,9}$/.test(value.trim()) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 1 || n > 2_147_483_647) {
    throw new ValidationError({ product_id: ["Invalid product ID."] });
  }
  return n;
}

export async function wishlistRoutes(app: FastifyInstance, options: { wishlist: WishlistService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ["wishlist"];
  storeNothing(app, "private, no-store");

  r.get("/account/wishlist", { schema: { tags, summary: "Your saved products" } }, async (request) => ({
    data: await options.wishlist.list(userId(request), request.prices),
  }));

  r.post(
    "/account/wishlist",
    { schema: { tags, summary: "Saves a product; saving it twice keeps one", body: z.object({ product_id: z.unknown() }).optional() } },
    async (request, reply) => {
      const id = userId(request);
      const pid = productId(request.body?.product_id);
      await options.wishlist.add(id, pid);
      return reply.code(201).send({ success: true, message: "Added to your wishlist.", data: await options.wishlist.list(id, request.prices) });
    },
  );

  r.delete(
    "/account/wishlist/:product_id",
    { schema: { tags, summary: "Removes a saved product", params: z.object({ product_id: z.string() }) } },
    async (request) => {
      const id = userId(request);
      await options.wishlist.remove(id, productId(request.params.product_id));
      return { success: true, message: "Removed from your wishlist.", data: await options.wishlist.list(id, request.prices) };
    },
  );
}
