import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { HttpError, ValidationError, parseInput } from "../../http-errors.ts";
import { recordAudit } from "../audit/service.ts";
import type { StaffActor } from "./actor.ts";
import { staffFilterPresets } from "./schema.ts";

/** The list screens whose filters a member may save. */
export const PRESET_SCREENS = ["orders", "customers", "audit"] as const;
export type PresetScreen = (typeof PRESET_SCREENS)[number];
const PRESETS_MAX = 30;

export const presetBody = z.object({
  screen: z.enum(PRESET_SCREENS, { error: "Choose a list." }),
  name: z.string({ error: "Name the filters." }).trim().min(1, "Name the filters.").max(60, "The name must be at most 60 characters."),
  // The list's query string as it was, without a page cursor: filters only.
  query: z
    .string()
    .max(1000, "Those filters are too long to save.")
    .transform((q) => {
      const params = new URLSearchParams(q.replace(/^\?/, ""));
      params.delete("cursor");
      return params.toString();
    }),
});

/**
 * A member's saved filters for a list screen (Vendure #477, #685): their own,
 * by name; saving a name again replaces its filters. Personal, but still a
 * staff write, so each is audited.
 */
export function createFilterPresets(db: Db) {
  return {
    async list(actor: StaffActor, screen: PresetScreen) {
      const rows = await db
        .select({ id: staffFilterPresets.id, name: staffFilterPresets.name, query: staffFilterPresets.query })
        .from(staffFilterPresets)
        .where(and(eq(staffFilterPresets.staffId, actor.staffId), eq(staffFilterPresets.screen, screen)))
        .orderBy(asc(staffFilterPresets.name));
      return rows;
    },

    async save(actor: StaffActor, body: unknown) {
      const input = parseInput(presetBody, body);
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        const mine = await tx.select({ id: staffFilterPresets.id, name: staffFilterPresets.name }).from(staffFilterPresets).where(and(eq(staffFilterPresets.staffId, actor.staffId), eq(staffFilterPresets.screen, input.screen)));
        if (mine.length >= PRESETS_MAX && !mine.some((p) => p.name === input.name)) throw new ValidationError({ name: [`You can keep up to ${PRESETS_MAX} saved filters here. Delete one first.`] });
        const [row] = await tx
          .insert(staffFilterPresets)
          .values({ staffId: actor.staffId, screen: input.screen, name: input.name, query: input.query })
          .onConflictDoUpdate({ target: [staffFilterPresets.staffId, staffFilterPresets.screen, staffFilterPresets.name], set: { query: input.query } })
          .returning({ id: staffFilterPresets.id, name: staffFilterPresets.name, query: staffFilterPresets.query });
        await recordAudit(tx, actor, { action: "preset.saved", entity: "filter_preset", entityId: row!.id, after: { screen: input.screen, name: row!.name, query: row!.query } });
        return row!;
      });
    },

    async remove(actor: StaffActor, id: number) {
      return db.transaction(async (t) => {
        const tx = t as unknown as Db;
        // Another member's preset is not found: nobody deletes someone else's.
        const [row] = await tx.delete(staffFilterPresets).where(and(eq(staffFilterPresets.id, id), eq(staffFilterPresets.staffId, actor.staffId))).returning();
        if (!row) throw new HttpError(404, "No such saved filters.");
        await recordAudit(tx, actor, { action: "preset.deleted", entity: "filter_preset", entityId: id, before: { screen: row.screen, name: row.name, query: row.query } });
        return { id };
      });
    },
  };
}

export type FilterPresets = ReturnType<typeof createFilterPresets>;
