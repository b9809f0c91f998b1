import { and, count, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http-errors.ts";
import type { ProcessedPhoto } from "../../media/photos.ts";
import type { FileStore, StoredFile } from "../../media/store.ts";
import { type UploadedFile, withStoredPhotos } from "../../media/uploads.ts";
import { orders } from "../../orders/schema.ts";
import { ofMyBranches } from "../../orders/read.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { PHOTO_STATUSES, type PhotoRow, type PhotoSize, RETURN_PHOTOS_MAX, RETURN_PHOTO_OUTPUT, checkCaptions, checkCount, customerPhotosJson, insertReturnPhotos, photosOf } from "./rows.ts";
import { returnPhotos, returns } from "../schema.ts";
import { type Requester, checkOwner } from "../service.ts";

/** The file of one size of a photo: the thumbnail or the large one. */
function fileOf(store: FileStore, row: PhotoRow | undefined, size: PhotoSize): Promise<StoredFile | null> {
  if (!row) return Promise.resolve(null);
  const pick = size === "small" ? row.renditions[0] : row.renditions.at(-1);
  return pick ? store.get(pick.key) : Promise.resolve(null);
}

/**
 * The photos a customer attaches to their return (issue 31), through the
 * shop's image pipeline: sniffed by their bytes, limited in size and
 * pixels, HEIC refused with its reason, EXIF gone from what is served.
 */
export function createReturnPhotos(db: Db, options: { store: FileStore; log?: { warn(obj: unknown, msg: string): void } }) {
  const { store } = options;

  /** The order (its customer's or the link's) and its return, or 404/403 as the other return routes answer. */
  async function customerReturn(q: Db, number: string, rma: string, who: Requester, lock = false) {
    const [order] = await q.select().from(orders).where(eq(orders.number, number.trim().toUpperCase()));
    checkOwner(order, who, number);
    const query = q
      .select()
      .from(returns)
      .where(and(eq(returns.orderId, order.id), eq(returns.number, rma.trim().toUpperCase())));
    const [ret] = lock ? await query.for("update") : await query;
    if (!ret) throw new HttpError(404, `No return ${rma.trim().toUpperCase()} on order ${order.number}.`);
    return { order, ret };
  }

  const existingCount = async (q: Db, returnId: number) => (await q.select({ n: count() }).from(returnPhotos).where(eq(returnPhotos.returnId, returnId)))[0]!.n;

  return {
    /**
     * Checks, converts and stores the photos of a return about to be asked
     * for, then runs `work` with them (which writes the rows in its own
     * transaction); one refused photo refuses them all, nothing stored.
     */
    async prepare<T>(files: UploadedFile[], captions: string[], work: (photos: ProcessedPhoto[]) => Promise<T>): Promise<T> {
      if (!files.length) return work([]);
      checkCount(0, files.length);
      checkCaptions(captions);
      return withStoredPhotos(store, files, work, { output: RETURN_PHOTO_OUTPUT, log: options.log });
    },

    /**
     * Adds photos to a return while it is requested or approved: who asks is
     * checked before `read` takes the body, the count again under the
     * return's row lock (two uploads at once cannot pass the limit).
     */
    async attach(number: string, rma: string, who: Requester, read: () => Promise<{ files: UploadedFile[]; captions: string[] }>) {
      const { order, ret } = await customerReturn(db, number, rma, who);
      const open = (status: string) => (PHOTO_STATUSES as readonly string[]).includes(status);
      const closed = () => new HttpError(409, `Return ${ret.number} is ${ret.status}: photos can be added while it is requested or approved.`);
      if (!open(ret.status)) throw closed();
      const before = await existingCount(db, ret.id);
      if (before >= RETURN_PHOTOS_MAX) checkCount(before, 1);
      const { files, captions } = await read();
      checkCount(before, files.length);
      checkCaptions(captions);
      await withStoredPhotos(
        store,
        files,
        (photos) =>
          db.transaction(async (t) => {
            const tx = t as unknown as Db;
            const locked = await customerReturn(tx, number, rma, who, true);
            if (!open(locked.ret.status)) throw closed();
            checkCount(await existingCount(tx, ret.id), photos.length);
            await insertReturnPhotos(tx, ret.id, photos, captions);
          }),
        { output: RETURN_PHOTO_OUTPUT, log: options.log },
      );
      return customerPhotosJson((await photosOf(db, [ret.id])).get(ret.id), order.number, ret.number);
    },

    /** A photo's file for the order's customer or the holder of its link: null when there is no such photo. */
    async customerFile(number: string, rma: string, photoId: string, size: PhotoSize, who: Requester): Promise<StoredFile | null> {
      const { ret } = await customerReturn(db, number, rma, who);
      const [row] = await db.select().from(returnPhotos).where(and(eq(returnPhotos.returnId, ret.id), eq(returnPhotos.photoId, photoId)));
      return fileOf(store, row, size);
    },

    /** A photo's file for the returns desk: returns.view, and the member's branches only, as the return's page. */
    async deskFile(actor: StaffActor, rma: string, photoId: string, size: PhotoSize): Promise<StoredFile | null> {
      authorize(actor, "returns.view");
      const [row] = await db
        .select({ photo: returnPhotos })
        .from(returnPhotos)
        .innerJoin(returns, eq(returns.id, returnPhotos.returnId))
        .innerJoin(orders, eq(orders.id, returns.orderId))
        .where(and(eq(returns.number, rma.trim().toUpperCase()), eq(returnPhotos.photoId, photoId), ofMyBranches(actor)));
      return fileOf(store, row?.photo, size);
    },
  };
}

export type ReturnPhotos = ReturnType<typeof createReturnPhotos>;
