import { eq, sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError, ValidationError } from "../../../http-errors.ts";
import { recordAudit } from "../../audit/service.ts";
import { hireItems } from "../../hire/schema.ts";
import type { ImageSource, ProductImage } from "../../media/contract.ts";
import { type ProcessedPhoto, keysOf, photoEntry } from "../../media/photos.ts";
import { type UploadedFile, discardFiles, withStoredPhotos } from "../../media/uploads.ts";

export type { UploadedFile };
import type { FileStore } from "../../media/store.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { productVariants, products } from "../schema.ts";
import { lineName } from "../variants/variant-names.ts";

/** At most this many photos per product or hire item, and per upload. */
export const PHOTOS_MAX = 20;
export const UPLOAD_FILES_MAX = 10;
export const ALT_MAX = 250;

/** Whose photos: a product by its SKU, or a hire item by its slug. */
/** Whose photos: a product, one of its variants (shown when it is chosen; none shows the product's), or a hire item. */
export type PhotoOwner = { kind: "product"; sku: string } | { kind: "variant"; sku: string } | { kind: "hire_item"; slug: string };

/** A photo as the back office and its API see it. */
export interface AdminPhoto {
  id: string;
  alt: string;
  src: string;
  width: number | null;
  height: number | null;
  sources: ImageSource[];
}

/** A photo is an entry with an id; the drawn SVG (no id) is the fallback of an item with none. */
const isPhoto = (image: ProductImage): image is ProductImage & { id: string } => typeof image.id === "string";

export function adminPhotos(images: readonly ProductImage[]): AdminPhoto[] {
  return images.filter(isPhoto).map((i) => ({ id: i.id, alt: i.alt, src: i.src, width: i.width ?? null, height: i.height ?? null, sources: i.sources ?? [] }));
}

/** The drawn picture of an item with no photo, as the demo seed writes it. */
const drawn = (slug: string, name: string): ProductImage => ({ src: `/images/products/${slug}/1.svg`, alt: name });

/**
 * Products' and hire items' photos in the back office (issue 20, ADR 0034).
 * Files are checked and converted before any lock is taken (a second or so
 * each); then the row is locked (`for update`) while its `images` array is
 * rewritten, so two uploads at once both land, and the change is audited in
 * the same transaction. The catalogue's triggers bump the page version, so
 * the storefront's next request shows the change.
 */
export function createAdminPhotoService(db: Db, options: { store: FileStore; log?: { warn(obj: unknown, msg: string): void } }) {
  const { store } = options;

  const label = (owner: PhotoOwner) => ({ product: "product", variant: "variant", hire_item: "hire item" })[owner.kind];

  /** The owner's row (locked for the transaction when `lock`): its id, slug, name and images. */
  async function rowOf(q: Db, owner: PhotoOwner, lock: boolean) {
    if (owner.kind === "product") {
      const query = q
        .select({ id: products.id, slug: products.slug, name: products.name, images: products.images, key: products.sku })
        .from(products)
        .where(eq(sql`lower(${products.sku})`, owner.sku.toLowerCase()))
        .limit(1);
      const [row] = lock ? await query.for("update") : await query;
      if (!row) throw new HttpError(404, "No product has that SKU.");
      return row;
    }
    if (owner.kind === "variant") {
      const query = q
        .select({ id: productVariants.id, slug: products.slug, name: products.name, options: productVariants.options, images: productVariants.images, key: productVariants.sku })
        .from(productVariants)
        .innerJoin(products, eq(products.id, productVariants.productId))
        .where(eq(sql`lower(${productVariants.sku})`, owner.sku.toLowerCase()))
        .limit(1);
      // The variant's row alone is locked: its photos are its own.
      const [row] = lock ? await query.for("update", { of: productVariants }) : await query;
      if (!row) throw new HttpError(404, "No variant has that SKU.");
      return { ...row, name: lineName(row.name, row.options) };
    }
    const query = q.select({ id: hireItems.id, slug: hireItems.slug, name: hireItems.name, images: hireItems.images, key: hireItems.slug }).from(hireItems).where(eq(hireItems.slug, owner.slug)).limit(1);
    const [row] = lock ? await query.for("update") : await query;
    if (!row) throw new HttpError(404, "No hire item has that slug.");
    return row;
  }

  async function write(tx: Db, owner: PhotoOwner, id: number, images: ProductImage[]) {
    if (owner.kind === "product") await tx.update(products).set({ images, updatedAt: sql`now()` }).where(eq(products.id, id));
    else if (owner.kind === "variant") await tx.update(productVariants).set({ images, updatedAt: sql`now()` }).where(eq(productVariants.id, id));
    else await tx.update(hireItems).set({ images }).where(eq(hireItems.id, id));
  }

  /** Rewrites the owner's images under its lock, audited; returns the whole list of photos. */
  async function change(actor: StaffActor, owner: PhotoOwner, verb: string, edit: (images: ProductImage[], row: { slug: string; name: string }) => { images: ProductImage[]; before: Record<string, unknown>; after: Record<string, unknown> }) {
    return db.transaction(async (tx) => {
      const row = await rowOf(tx, owner, true);
      const next = edit(row.images, row);
      await write(tx, owner, row.id, next.images);
      await recordAudit(tx, actor, { action: `${owner.kind}.${verb}`, entity: owner.kind, entityId: row.key, before: next.before, after: next.after });
      return { images: adminPhotos(next.images) };
    });
  }

  const ids = (images: ProductImage[]) => images.filter(isPhoto).map((i) => i.id);

  function find(images: ProductImage[], owner: PhotoOwner, id: string) {
    const index = images.findIndex((i) => i.id === id);
    if (index < 0) throw new HttpError(404, `This ${label(owner)} has no photo with that id.`);
    return index;
  }

  const discard = (keys: string[]) => discardFiles(store, keys, options.log);

  /** Checks, converts and stores the files (media/uploads.ts), then runs `work` with them; nothing is left stored when either fails. */
  async function withStored<T>(files: UploadedFile[], work: (processed: ProcessedPhoto[]) => Promise<T>): Promise<T> {
    if (files.length === 0) throw new ValidationError({ file: ["Choose a photo to upload."] });
    if (files.length > UPLOAD_FILES_MAX) throw new ValidationError({ file: [`Upload at most ${UPLOAD_FILES_MAX} photos at a time.`] });
    return withStoredPhotos(store, files, work, { log: options.log });
  }

  return {
    /** The owner's photos (read: catalogue.view). */
    async list(actor: StaffActor, owner: PhotoOwner) {
      authorize(actor, "catalogue.view");
      const row = await rowOf(db, owner, false);
      return { images: adminPhotos(row.images) };
    },

    /** Called before a body is read: refuses a role that may not upload before any byte is parsed. */
    authorizeUpload(actor: StaffActor) {
      return authorize(actor, "catalogue.manage");
    },

    /**
     * Adds photos after the owner's own: every file is checked and converted
     * first, and one refused file refuses the upload (422 naming the file), with
     * nothing stored. The first photo replaces the drawn fallback.
     */
    async upload(actor: StaffActor, owner: PhotoOwner, files: UploadedFile[]) {
      authorize(actor, "catalogue.manage");
      return withStored(files, (processed) =>
        change(actor, owner, "photos_added", (images) => {
          const photos = images.filter(isPhoto);
          if (photos.length + processed.length > PHOTOS_MAX) {
            throw new ValidationError({ file: [`A ${label(owner)} may have at most ${PHOTOS_MAX} photos; it has ${photos.length}.`] });
          }
          const next = [...photos, ...processed.map((p) => photoEntry(p))];
          return { images: next, before: { photos: ids(images) }, after: { photos: ids(next) } };
        }),
      );
    },

    /**
     * Photos for a product the same submission creates (the new-product
     * form): each file checked, converted and stored first, so a refused
     * file refuses the product with nothing written; `make` receives their
     * entries with their alt text, and the files are deleted again when it
     * throws (a SKU already taken, say).
     */
    async forNewProduct<T>(actor: StaffActor, files: (UploadedFile & { alt: string })[], make: (images: ProductImage[]) => Promise<T>): Promise<T> {
      authorize(actor, "catalogue.manage");
      if (files.length === 0) return make([]);
      const tooLong = files.findIndex((f) => f.alt.trim().length > ALT_MAX);
      if (tooLong >= 0) throw new ValidationError({ photos: [`Photo ${tooLong + 1}: alt text may be at most ${ALT_MAX} characters.`] });
      return withStored(files, (processed) => make(processed.map((p, i) => photoEntry(p, files[i]!.alt.trim()))));
    },

    /** Puts the photos in the order given: every photo's id, once each. */
    async reorder(actor: StaffActor, owner: PhotoOwner, order: string[]) {
      authorize(actor, "catalogue.manage");
      return change(actor, owner, "photos_reordered", (images) => {
        const photos = images.filter(isPhoto);
        const current = photos.map((p) => p.id);
        if (order.length !== current.length || new Set(order).size !== order.length || !order.every((id) => current.includes(id))) {
          throw new ValidationError({ ids: ["Give every photo's id once, in the new order."] });
        }
        const next = order.map((id) => photos.find((p) => p.id === id)!);
        return { images: next, before: { photos: current }, after: { photos: order } };
      });
    },

    /** A photo's alt text: what it shows, read aloud to whoever cannot see it. */
    async setAlt(actor: StaffActor, owner: PhotoOwner, id: string, alt: string) {
      authorize(actor, "catalogue.manage");
      return change(actor, owner, "photo_described", (images) => {
        const index = find(images, owner, id);
        const next = images.map((image, i) => (i === index ? { ...image, alt } : image));
        return { images: next, before: { photo: id, alt: images[index]!.alt }, after: { photo: id, alt } };
      });
    },

    /** Deletes a photo and then its files; the drawn picture comes back when the last one goes. */
    async remove(actor: StaffActor, owner: PhotoOwner, id: string) {
      authorize(actor, "catalogue.manage");
      let gone: ProductImage | undefined;
      const result = await change(actor, owner, "photo_deleted", (images, row) => {
        const index = find(images, owner, id);
        gone = images[index];
        const rest = images.filter((_, i) => i !== index);
        // A variant without photos shows its product's; a product or hire item gets its drawn picture back.
        const next = rest.some(isPhoto) || owner.kind === "variant" ? rest : [drawn(row.slug, row.name)];
        return { images: next, before: { photos: ids(images) }, after: { photos: ids(next) } };
      });
      await discard(keysOf(gone!));
      return result;
    },
  };
}

export type AdminPhotoService = ReturnType<typeof createAdminPhotoService>;
