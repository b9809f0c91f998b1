import { HttpError } from "../../http-errors.ts";
import type { User } from "./schema.ts";

/** The customer signed in behind a request (plugins/auth.ts reads who), else 401: a customer's own routes call it first. */
export function signedIn(request: { user: User | null }, message = "Unauthenticated."): User {
  if (!request.user) throw new HttpError(401, message);
  return request.user;
}
