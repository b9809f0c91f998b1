import { and, asc, eq, isNull, ne, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client.ts";
import { isUniqueViolation } from "../../../db/errors.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { refreshSearchWords } from "../search/product-search.ts";
import { SLUG_PATTERN, slugFrom } from "../products/product-rules.ts";
import { sanitizeDescription } from "../products/sanitize.ts";
import { ATTRIBUTE_KINDS, type AttributeKind, categories, categoryAttributes, categoryRedirects, manufacturers, productCategories, products } from "../schema.ts";

/**
 * The category tree and the brands in the back office (issue 20). A category's
 * URL is its path of slugs; renaming its slug or moving it under another
 * parent rewrites its path and every descendant's in one statement, and each
 * old path keeps answering with a 301 (category_redirects). Reads need
 * catalogue.view, writes catalogue.manage, each write audited.
 */
const name = z.string({ error: "Enter the name." }).trim().min(1, "Enter the name.").max(120, "The name can be at most 120 characters.");
const slug = z.string().trim().toLowerCase().regex(SLUG_PATTERN, "Use lower-case letters, digits and single dashes for the web address.").max(100, "The web address can be at most 100 characters.");
const description = z.string().trim().max(5_000, "The description can be at most 5,000 characters.");

export const categoryCreate = z.object({ name, slug: slug.optional(), parent_id: z.number().int().positive().nullable().optional(), description: description.optional() }).strict();
export const categoryPatch = z.object({ name: name.optional(), slug: slug.optional(), parent_id: z.number().int().positive().nullable().optional(), description: description.optional() }).strict();
export const attributeSetBody = z.object({
  attributes: z
    .array(
      z.object({
        name: z.string().trim().min(1, "Name each attribute.").max(60, "An attribute's name can be at most 60 characters."),
        kind: z.enum(ATTRIBUTE_KINDS, { error: "Choose text, number or yes/no." }),
        unit: z.string().trim().max(10, "A unit can be at most 10 characters.").default(""),
      }),
    )
    .max(30, "A category can ask for at most 30 attributes.")
    .refine((list) => new Set(list.map((a) => a.name.toLowerCase())).size === list.length, "Give each attribute once."),
});
export const brandCreate = z.object({ name, slug: slug.optional(), description: description.optional() }).strict();
export const brandPatch = brandCreate.partial().strict();

export interface CategoryRow {
  id: number;
  parent_id: number | null;
  name: string;
  slug: string;
  path: string;
  description: string;
  position: number;
  depth: number;
  /** Products listed in it or its subcategories, as its page lists them. */
  products: number;
  /** Its own attribute set (its subcategories inherit it). */
  attributes: { name: string; kind: AttributeKind; unit: string }[];
}

export function createAdminTreeService(db: Db) {
  async function rows(q: Db = db): Promise<CategoryRow[]> {
    const found = await q
      .select({
        id: categories.id,
        parent_id: categories.parentId,
        name: categories.name,
        slug: categories.slug,
        path: categories.path,
        description: categories.description,
        position: categories.position,
        // As its page lists them: its own and its subcategories' (paths are slugs, no LIKE wildcards). The outer
        // row is named in full: in a one-table select Drizzle would write ${categories.path} as a bare "path", which is d's.
        products: sql<number>`(select count(distinct pc.product_id)::int from ${productCategories} pc join ${categories} d on d.id = pc.category_id where d.path = "categories"."path" or d.path like "categories"."path" || '/%')`,
      })
      .from(categories)
      .orderBy(asc(categories.position), asc(categories.id));
    const sets = await q
      .select({ categoryId: categoryAttributes.categoryId, name: categoryAttributes.name, kind: categoryAttributes.kind, unit: categoryAttributes.unit })
      .from(categoryAttributes)
      .orderBy(asc(categoryAttributes.categoryId), asc(categoryAttributes.position), asc(categoryAttributes.id));
    // Depth-first, siblings by position: the order the tree is drawn in.
    const children = new Map<number | null, typeof found>();
    for (const r of found) children.set(r.parent_id, [...(children.get(r.parent_id) ?? []), r]);
    const out: CategoryRow[] = [];
    const walk = (parent: number | null, depth: number) => {
      for (const r of children.get(parent) ?? []) {
        out.push({ ...r, depth, attributes: sets.filter((a) => a.categoryId === r.id).map(({ name, kind, unit }) => ({ name, kind, unit })) });
        walk(r.id, depth + 1);
      }
    };
    walk(null, 0);
    return out;
  }

  function siblingClash(error: unknown): never {
    if (isUniqueViolation(error)) throw new ValidationError({ slug: ["Another category under the same parent has that web address."] });
    throw error;
  }

  /** Rewrites the paths under `from` to start with `to` (the category itself included), leaving a redirect for each old path. */
  async function movePaths(tx: Db, id: number, from: string, to: string): Promise<number> {
    if (from === to) return 0;
    const moved = (await tx.execute(sql`
      with moved as (
        select c.id, c.path as old_path, ${to} || substr(c.path, ${from.length + 1}) as new_path
        from ${categories} c where c.id = ${id} or c.path like ${`${from}/%`}
      ),
      redirected as (
        insert into ${categoryRedirects} (path, category_id)
        select old_path, id from moved
        on conflict (path) do update set category_id = excluded.category_id, created_at = now()
      ),
      updated as (
        update ${categories} c set path = moved.new_path, updated_at = now() from moved where c.id = moved.id returning c.id
      )
      select count(*)::int as n from updated`)) as unknown as { rows: { n: number }[] };
    // A path that is live again is no longer a redirect.
    await tx.execute(sql`delete from ${categoryRedirects} r using ${categories} c where r.path = c.path`);
    return moved.rows[0]?.n ?? 0;
  }

  function parse<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      const errors: Record<string, string[]> = {};
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? "category");
        errors[field] = [...(errors[field] ?? []), issue.message];
      }
      throw new ValidationError(errors);
    }
    return parsed.data;
  }

  return {
    async tree(actor: StaffActor) {
      authorize(actor, "catalogue.view");
      return rows();
    },

    async createCategory(actor: StaffActor, input: unknown) {
      authorize(actor, "catalogue.manage");
      const fields = parse(categoryCreate, input);
      const ownSlug = fields.slug ?? slugFrom(fields.name);
      if (!ownSlug) throw new ValidationError({ slug: ["Give the category a web address of letters and digits."] });
      return db
        .transaction(async (t) => {
          const tx = t as unknown as Db;
          let parentPath = "";
          if (fields.parent_id) {
            const [parent] = await tx.select({ path: categories.path }).from(categories).where(eq(categories.id, fields.parent_id)).for("update");
            if (!parent) throw new ValidationError({ parent_id: ["That parent category does not exist."] });
            parentPath = `${parent.path}/`;
          }
          const [last] = await tx
            .select({ n: sql<number>`coalesce(max(${categories.position}) + 1, 0)::int` })
            .from(categories)
            .where(fields.parent_id ? eq(categories.parentId, fields.parent_id) : isNull(categories.parentId));
          const [made] = await tx
            .insert(categories)
            .values({ name: fields.name, slug: ownSlug, path: parentPath + ownSlug, parentId: fields.parent_id ?? null, description: sanitizeDescription(fields.description ?? ""), position: last?.n ?? 0 })
            .returning();
          await tx.delete(categoryRedirects).where(eq(categoryRedirects.path, made!.path));
          await recordAudit(tx, actor, { action: "category.created", entity: "category", entityId: made!.id, before: null, after: { name: made!.name, path: made!.path } });
          return (await rows(tx)).find((r) => r.id === made!.id)!;
        })
        .catch(siblingClash);
    },

    /** Rename, a new web address, a new parent (never itself or one of its own), a new description. */
    async updateCategory(actor: StaffActor, id: number, input: unknown) {
      authorize(actor, "catalogue.manage");
      const patch = parse(categoryPatch, input);
      return db
        .transaction(async (t) => {
          const tx = t as unknown as Db;
          // The whole tree's rows are few; locking them all keeps two moves from crossing.
          const locked = await tx.select().from(categories).orderBy(asc(categories.id)).for("update");
          const before = locked.find((c) => c.id === id);
          if (!before) throw new HttpError(404, "No such category.");
          const parentId = patch.parent_id === undefined ? before.parentId : patch.parent_id;
          const parent = parentId === null ? null : locked.find((c) => c.id === parentId);
          if (parentId !== null && !parent) throw new ValidationError({ parent_id: ["That parent category does not exist."] });
          if (parent && (parent.id === id || parent.path.startsWith(`${before.path}/`))) throw new ValidationError({ parent_id: ["A category cannot go under itself or one of its own subcategories."] });
          const newSlug = patch.slug ?? before.slug;
          const newPath = `${parent ? `${parent.path}/` : ""}${newSlug}`;
          const parentMoved = parentId !== before.parentId;
          const position = parentMoved
            ? Math.max(-1, ...locked.filter((c) => c.parentId === parentId && c.id !== id).map((c) => c.position)) + 1
            : before.position;
          await tx
            .update(categories)
            .set({
              name: patch.name ?? before.name,
              slug: newSlug,
              parentId,
              position,
              ...(patch.description !== undefined ? { description: sanitizeDescription(patch.description) } : {}),
              updatedAt: sql`now()`,
            })
            .where(eq(categories.id, id));
          const moved = await movePaths(tx, id, before.path, newPath);
          await recordAudit(tx, actor, {
            action: "category.updated",
            entity: "category",
            entityId: id,
            before: { name: before.name, path: before.path },
            after: { name: patch.name ?? before.name, path: newPath, ...(moved > 1 ? { subcategories_moved: moved - 1 } : {}) },
          });
          return (await rows(tx)).find((r) => r.id === id)!;
        })
        .catch(siblingClash);
    },

    /** One place up or down among its siblings. */
    async moveCategory(actor: StaffActor, id: number, direction: "up" | "down") {
      authorize(actor, "catalogue.manage");
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [me] = await tx.select().from(categories).where(eq(categories.id, id)).for("update");
        if (!me) throw new HttpError(404, "No such category.");
        const siblings = await tx
          .select({ id: categories.id, position: categories.position })
          .from(categories)
          .where(me.parentId === null ? isNull(categories.parentId) : eq(categories.parentId, me.parentId))
          .orderBy(asc(categories.position), asc(categories.id))
          .for("update");
        const at = siblings.findIndex((s) => s.id === id);
        const other = siblings[direction === "up" ? at - 1 : at + 1];
        if (!other) return { moved: false };
        // Positions rewritten as 0..n in the new order, so ties left by older data sort out too.
        const order = siblings.map((s) => s.id);
        [order[at], order[order.indexOf(other.id)]] = [other.id, id];
        for (const [position, sibling] of order.entries()) await tx.update(categories).set({ position }).where(eq(categories.id, sibling));
        await recordAudit(tx, actor, { action: "category.reordered", entity: "category", entityId: id, before: { position: at }, after: { position: order.indexOf(id) } });
        return { moved: true };
      });
    },

    /** Replaces a category's attribute set; its products' values are checked against it from their next save. */
    async setAttributes(actor: StaffActor, id: number, input: unknown) {
      authorize(actor, "catalogue.manage");
      const { attributes } = parse(attributeSetBody, input);
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const [category] = await tx.select({ id: categories.id }).from(categories).where(eq(categories.id, id)).for("update");
        if (!category) throw new HttpError(404, "No such category.");
        const before = await tx.select({ name: categoryAttributes.name, kind: categoryAttributes.kind, unit: categoryAttributes.unit }).from(categoryAttributes).where(eq(categoryAttributes.categoryId, id)).orderBy(asc(categoryAttributes.position));
        await tx.delete(categoryAttributes).where(eq(categoryAttributes.categoryId, id));
        if (attributes.length) await tx.insert(categoryAttributes).values(attributes.map((a, position) => ({ categoryId: id, name: a.name, kind: a.kind, unit: a.kind === "number" ? a.unit : "", position })));
        const describe = (list: { name: string; kind: string; unit: string }[]) => list.map((a) => `${a.name} (${a.kind}${a.unit ? `, ${a.unit}` : ""})`).join("; ");
        await recordAudit(tx, actor, { action: "category.attributes_set", entity: "category", entityId: id, before: { attributes: describe(before) }, after: { attributes: describe(attributes) } });
        return (await rows(tx)).find((r) => r.id === id)!;
      });
    },

    async brands(actor: StaffActor) {
      authorize(actor, "catalogue.view");
      return db
        .select({
          id: manufacturers.id,
          name: manufacturers.name,
          slug: manufacturers.slug,
          description: manufacturers.description,
          products: sql<number>`(select count(*)::int from ${products} p where p.manufacturer_id = ${manufacturers.id})`,
        })
        .from(manufacturers)
        .orderBy(asc(manufacturers.name));
    },

    async createBrand(actor: StaffActor, input: unknown) {
      authorize(actor, "catalogue.manage");
      const fields = parse(brandCreate, input);
      const ownSlug = fields.slug ?? slugFrom(fields.name);
      if (!ownSlug) throw new ValidationError({ slug: ["Give the brand a web address of letters and digits."] });
      return db
        .transaction(async (t) => {
          const tx = t as unknown as Db;
          const [made] = await tx
            .insert(manufacturers)
            .values({ name: fields.name, slug: ownSlug, description: sanitizeDescription(fields.description ?? ""), logo: `/images/brands/${ownSlug}.svg` })
            .returning();
          await recordAudit(tx, actor, { action: "brand.created", entity: "brand", entityId: made!.id, before: null, after: { name: made!.name, slug: made!.slug } });
          return { id: made!.id, name: made!.name, slug: made!.slug, description: made!.description, products: 0 };
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new ValidationError({ slug: ["Another brand has that web address."] });
          throw error;
        });
    },

    async updateBrand(actor: StaffActor, id: number, input: unknown) {
      authorize(actor, "catalogue.manage");
      const patch = parse(brandPatch, input);
      return db
        .transaction(async (t) => {
          const tx = t as unknown as Db;
          const [before] = await tx.select().from(manufacturers).where(eq(manufacturers.id, id)).for("update");
          if (!before) throw new HttpError(404, "No such brand.");
          if (patch.slug && patch.slug !== before.slug) {
            const [taken] = await tx.select({ id: manufacturers.id }).from(manufacturers).where(and(eq(manufacturers.slug, patch.slug), ne(manufacturers.id, id)));
            if (taken) throw new ValidationError({ slug: ["Another brand has that web address."] });
          }
          const [after] = await tx
            .update(manufacturers)
            .set({ ...(patch.name ? { name: patch.name } : {}), ...(patch.slug ? { slug: patch.slug } : {}), ...(patch.description !== undefined ? { description: sanitizeDescription(patch.description) } : {}) })
            .where(eq(manufacturers.id, id))
            .returning();
          // Its products' search text names the brand: a renamed brand is found by its new name.
          if (patch.name && patch.name !== before.name) {
            const renamed = (await tx.execute(
              sql`update ${products} set search_text = ${patch.name} || substr(search_text, ${before.name.length + 1}), updated_at = now() where manufacturer_id = ${id} and starts_with(search_text, ${before.name}) returning id`,
            )) as unknown as { rows: { id: number }[] };
            if (renamed.rows.length) await refreshSearchWords(tx, renamed.rows.map((r) => r.id));
          }
          await recordAudit(tx, actor, { action: "brand.updated", entity: "brand", entityId: id, before: { name: before.name, slug: before.slug }, after: { name: after!.name, slug: after!.slug } });
          return { id, name: after!.name, slug: after!.slug, description: after!.description };
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw new ValidationError({ slug: ["Another brand has that web address."] });
          throw error;
        });
    },

  };
}

export type AdminTreeService = ReturnType<typeof createAdminTreeService>;
