import { z } from "zod";
import { newPassword } from "./passwords.ts";

const email = z.string({ error: "Enter your email address." }).trim().toLowerCase().max(254, "The email address is too long.").pipe(z.email({ error: "Enter a valid email address." }));
const name = (label: string) =>
  z
    .string({ error: `Enter your ${label}.` })
    .trim()
    .min(1, `Enter your ${label}.`)
    .max(100, `The ${label} must be at most 100 characters.`);

export const userJson = z.object({
  id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  is_trade: z.boolean(),
  trade_account_id: z.number().int().nullable(),
});
export type UserJson = z.infer<typeof userJson>;

export const authResponse = z.object({ user: userJson, token: z.string(), max_age: z.number().int() });

function confirmed<T extends { password: string; password_confirmation: string }>(schema: z.ZodType<T>) {
  return schema.refine((b) => b.password === b.password_confirmation, {
    message: "The password confirmation does not match.",
    path: ["password_confirmation"],
  });
}

export const registerBody = confirmed(
  z.object({
    firstname: name("first name"),
    lastname: name("last name"),
    email,
    password: newPassword,
    password_confirmation: z.string({ error: "Confirm the password." }),
    newsletter: z.boolean().optional().default(false),
  }),
);

export const loginBody = z.object({
  email,
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password.").max(1024),
  remember: z.boolean().optional().default(false),
});

export const recoveryBody = z.object({ email });
export const recoveryTokenBody = z.object({ email, token: z.string({ error: "The reset link is incomplete." }).min(1).max(200) });
export const resetPasswordBody = confirmed(
  z.object({
    email,
    token: z.string({ error: "The reset link is incomplete." }).min(1).max(200),
    password: newPassword,
    password_confirmation: z.string({ error: "Confirm the password." }),
  }),
);

export const successResponse = z.object({ success: z.literal(true), message: z.string().optional() });
export const messageResponse = z.object({ message: z.string() });
export const validationResponse = z.object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())) });

export { email as emailField, name as nameField };
