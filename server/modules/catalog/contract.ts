import { z } from "zod";

// Zod 4 recursion: a getter lets the node refer to itself.
export const categoryNode = z.object({
  id: z.number().int(),
  name: z.string(),
  slug: z.string(),
  path: z.string().describe("Slug path from the root, as in /category/{path}"),
  description: z.string(),
  get children() {
    return z.array(categoryNode);
  },
});

export type CategoryNode = z.infer<typeof categoryNode>;

export const categoryTreeResponse = z.object({ data: z.array(categoryNode) });
