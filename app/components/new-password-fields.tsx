import { errorFor, type FormResult } from "../lib/form-result.ts";
import { Field } from "./form.tsx";

/**
 * A new password and its confirmation (`password`, `password_confirmation`),
 * as registration, password reset and the account's password change ask for
 * them. The confirmation's label follows: "Password" → "Confirm password".
 */
export function NewPasswordFields({ result, label = "New password" }: { result: FormResult | undefined; label?: string }) {
  return (
    <>
      <Field
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        hint="8 to 128 characters"
        required
        minLength={8}
        maxLength={128}
        error={errorFor(result, "password")}
      />
      <Field
        label={`Confirm ${label.toLowerCase()}`}
        name="password_confirmation"
        type="password"
        autoComplete="new-password"
        required
        maxLength={128}
        error={errorFor(result, "password_confirmation")}
      />
    </>
  );
}
