import { z } from "zod";
import { STAFF_ROLES } from "./permissions.ts";

/** Shapes of the back office's staff API, shared by the routes and the screens. */
export const staffRole = z.enum(STAFF_ROLES, { error: "Choose a role." });

export const staffLoginBody = z.object({
  email: z.string({ error: "Enter your email address." }).trim().min(1, "Enter your email address.").max(254),
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(128),
  totp: z.string().trim().max(20).optional(),
});

export const staffSummary = z.object({ id: z.number().int(), email: z.string(), name: z.string(), role: staffRole });
export const staffJson = staffSummary.extend({
  role_label: z.string(),
  totp_enabled: z.boolean(),
  set_up: z.boolean(),
  refund_limit: z.number(),
  removed: z.boolean(),
  created_at: z.string(),
  branch_ids: z.array(z.number().int()).describe("The branches the member works at: their queues come first"),
  branches_only: z.boolean().describe("Limited to those branches' orders (never owners and managers)"),
});

export const staffUpdateBody = z
  .object({
    role: staffRole.optional(),
    refund_limit: z.number({ error: "Enter the refund limit in pounds." }).min(0, "The refund limit cannot be negative.").max(1_000_000, "The refund limit must be at most £1,000,000.").multipleOf(0.01, "Use pounds and pence.").optional(),
    branch_ids: z.array(z.number().int().positive(), { error: "Choose the branches." }).max(50, "Choose at most 50 branches.").optional(),
    branches_only: z.boolean().optional(),
  })
  .refine((b) => b.role !== undefined || b.refund_limit !== undefined || b.branch_ids !== undefined || b.branches_only !== undefined, "Change the role, the refund limit or the branches.");

export const apiTokenBody = z.object({
  name: z.string({ error: "Name the token." }).trim().min(1, "Name the token (what will use it).").max(80, "The name must be at most 80 characters."),
  role: staffRole,
});

export const setupBody = z.object({
  password: z.string({ error: "Enter a password." }).max(200),
  password_confirmation: z.string({ error: "Enter the password again." }).max(200),
  totp_code: z.string().trim().max(20).optional(),
});

export const totpEnrolment = z.object({ secret: z.string(), uri: z.string(), qr_svg: z.string() });
