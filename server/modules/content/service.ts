import { asc } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { onSale } from "../catalog/products/products.ts";
import { categories, manufacturers, products } from "../catalog/schema.ts";
import { hireItems } from "../hire/schema.ts";
import { escapeHtml } from "../../lib/html.ts";
import type { Outbox } from "../auth/service.ts";
import { renderEmail } from "../mail/templates.ts";
import { enquiries } from "./schema.ts";

export const ENQUIRY_TYPES = ["contact", "design-consultation"] as const;
export type EnquiryType = (typeof ENQUIRY_TYPES)[number];

export interface EnquiryInput {
  type: EnquiryType;
  name: string;
  email: string;
  phone: string;
  postcode: string;
  message: string;
}

/** Pages of the shop that are the same for everyone, for the sitemap. */
const CONTENT_PATHS = ["/", "/products", "/category", "/manufacturer", "/hire", "/showcase", "/kitchens-and-bathrooms", "/about", "/contact", "/delivery"];

export function createContentService(db: Db, options: { mail: Outbox; appName: string; publicUrl: string; shopEmail: string }) {
  return {
    /** Stores the enquiry and emails it to the shop, in one transaction. */
    async enquire(input: EnquiryInput, userId: number | null): Promise<number> {
      const id = await db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [row] = await tx.insert(enquiries).values({ ...input, userId }).returning({ id: enquiries.id });
        const label = input.type === "design-consultation" ? "Design consultation request" : "Contact enquiry";
        const mail = renderEmail({
          appName: options.appName,
          publicUrl: options.publicUrl,
          title: `${label} from ${input.name}`,
          paragraphs: [
            `Name: ${input.name}`,
            `Email: ${input.email}`,
            ...(input.phone ? [`Phone: ${input.phone}`] : []),
            ...(input.postcode ? [`Postcode: ${input.postcode}`] : []),
            input.message,
          ],
        });
        await options.mail.enqueue(tx, { to: options.shopEmail, subject: `${label} #${row!.id}`, ...mail });
        return row!.id;
      });
      options.mail.kick?.();
      return id;
    },

    async sitemap(): Promise<string> {
      const [cats, items, brands, hire] = await Promise.all([
        db.select({ path: categories.path }).from(categories).orderBy(asc(categories.path)),
        db.select({ slug: products.slug, updatedAt: products.updatedAt }).from(products).where(onSale).orderBy(asc(products.id)).limit(50_000),
        db.select({ id: manufacturers.id }).from(manufacturers).orderBy(asc(manufacturers.id)),
        db.select({ slug: hireItems.slug }).from(hireItems).orderBy(asc(hireItems.id)),
      ]);
      const url = (path: string, lastmod?: Date) =>
        `<url><loc>${escapeHtml(`${options.publicUrl}${path}`)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString().slice(0, 10)}</lastmod>` : ""}</url>`;
      return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
        ...CONTENT_PATHS.map((p) => url(p)),
        ...cats.map((c) => url(`/category/${c.path}`)),
        ...brands.map((b) => url(`/manufacturer/${b.id}`)),
        ...items.map((p) => url(`/product/${p.slug}`, p.updatedAt)),
        ...hire.map((h) => url(`/hire/${h.slug}`)),
        "</urlset>",
      ].join("\n");
    },

    robots(): string {
      return [
        "User-agent: *",
        "Disallow: /account",
        "Disallow: /auth",
        "Disallow: /trade",
        "Disallow: /checkout",
        // The baskets stay crawlable: their HTML is the same for everyone (the
        // lines load in the browser), and a blocked page costs the SEO audit.
        "Disallow: /api/",
        `Sitemap: ${options.publicUrl}/sitemap.xml`,
        "",
      ].join("\n");
    },
  };
}

export type ContentService = ReturnType<typeof createContentService>;
