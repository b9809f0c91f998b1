import { ValidationError } from "../http-errors.ts";

/** What a keyset page link says when its cursor is not one this list gave. */
export const STALE_PAGE_LINK = "This page link is out of date; start again from the first page.";

/**
 * A keyset list's opaque page cursor for lists ordered by id, newest first (the
 * orders, returns and hire desks, stock movements): the last row's id behind a
 * letter of the list's own, so a cursor from one list is refused by another.
 * A cursor that does not decode is a 422 on `cursor`, never a 500. `maxId`:
 * the id column's largest value (integer ids by default; stock movements are bigint).
 */
export function idCursor(letter: string, maxId = 2_147_483_647) {
  const shape = new RegExp(`^${letter}(\\d{1,18})$`);
  return {
    encode: (id: number) => Buffer.from(`${letter}${id}`).toString("base64url"),
    decode(cursor: string): number {
      const match = shape.exec(Buffer.from(cursor, "base64url").toString("latin1"));
      const id = match ? Number(match[1]) : Number.NaN;
      if (!Number.isSafeInteger(id) || id < 1 || id > maxId) throw new ValidationError({ cursor: [STALE_PAGE_LINK] });
      return id;
    },
  };
}
