// A return's photos' limits (issue 31), in a module of their own: the
// customer's form imports them into the browser's bundle, without the schema.

/** At most this many photos per return: enough to show a fault or the damage, and the box. */
export const RETURN_PHOTOS_MAX = 4;
export const CAPTION_MAX = 200;
