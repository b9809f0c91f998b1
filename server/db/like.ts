/** Text for a LIKE pattern, its wildcards (`%`, `_`) and escape character taken literally. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);
