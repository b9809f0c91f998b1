import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { ukPostcode } from "../account/contract.ts";
import { emailField, nameField } from "../auth/contract.ts";
import type { LimiterStore } from "../../plugins/rate-limit.ts";
import { ENQUIRY_TYPES, type ContentService } from "./service.ts";

export const enquiryBody = z.object({
  type: z.enum(ENQUIRY_TYPES, { error: "Choose the kind of enquiry." }),
  name: nameField("name"),
  email: emailField,
  phone: z.string().trim().max(30, "The phone number is too long.").regex(/^[0-9+() -]*$/, "Enter a valid phone number.").optional().default(""),
  postcode: z.union([z.literal(""), ukPostcode]).optional().default(""),
  message: z.string({ error: "Enter your message." }).trim().min(10, "Tell us a little more (at least 10 characters).").max(5000, "The message must be at most 5,000 characters."),
});

export async function contentRoutes(app: FastifyInstance, options: { content: ContentService; limits: LimiterStore }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const perClient = options.limits.limiter({ name: "enquiry", max: 5, windowMs: 10 * 60_000 });

  r.post(
    "/api/enquiries",
    {
      schema: {
        tags: ["content"],
        summary: "A contact or design-consultation enquiry: stored and emailed to the shop",
        body: enquiryBody,
      },
    },
    async (request, reply) => {
      const wait = await perClient.attempt(request.ip);
      if (wait > 0) {
        return reply.code(429).header("retry-after", String(wait)).send({ message: `Too many messages. Please try again in ${wait} seconds.` });
      }
      const id = await options.content.enquire(request.body, request.user?.id ?? null);
      return reply.code(201).send({ success: true, id, message: "Thank you. Your message has been sent; we reply within one working day." });
    },
  );

  app.get("/sitemap.xml", { schema: { hide: true } }, async (_request, reply) => {
    reply.type("application/xml; charset=utf-8").header("cache-control", "public, max-age=3600");
    return options.content.sitemap();
  });

  app.get("/robots.txt", { schema: { hide: true } }, async (_request, reply) => {
    reply.type("text/plain; charset=utf-8").header("cache-control", "public, max-age=86400");
    return options.content.robots();
  });
}
