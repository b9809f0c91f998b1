import { z } from "zod";
import { emailField } from "../../auth/contract.ts";
import { TRADE_ROLES } from "../schema.ts";

const role = z.enum(TRADE_ROLES, { error: "Choose owner, admin, buyer or accounts." });

export const tradeInviteBody = z.object({ email: emailField, role });
export const tradeRoleBody = z.object({ role });
export const tradeAcceptBody = z.object({ token: z.string({ error: "The invitation link is missing its token." }).trim().min(1, "The invitation link is missing its token.").max(200) });
export const tradeIdParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

export const tradeUserJson = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role,
  status: z.enum(["active"]),
  last_active_at: z.string().nullable(),
  joined_at: z.string(),
});

export const tradeInvitationJson = z.object({
  id: z.number().int(),
  email: z.string(),
  role,
  status: z.enum(["pending", "expired", "accepted", "revoked"]),
  expires_at: z.string(),
  created_at: z.string(),
});
