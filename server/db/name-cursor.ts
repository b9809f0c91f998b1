import { ValidationError } from "../http-errors.ts";

/**
 * A keyset cursor for lists ordered by name then id (the product and hire
 * item lists): the last row's name and id, wrapped so clients treat it as opaque.
 */
export const encodeNameCursor = (name: string, id: number): string => Buffer.from(JSON.stringify([name, id])).toString("base64url");

/** The name and id of a cursor, or a 422 that asks to start from the first page. */
export function decodeNameCursor(cursor: string): [string, number] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (Array.isArray(value) && typeof value[0] === "string" && Number.isSafeInteger(value[1])) return [value[0], value[1] as number];
  } catch {
    // Falls through to the message below.
  }
  throw new ValidationError({ cursor: ["This page link is out of date; start again from the first page."] });
}
