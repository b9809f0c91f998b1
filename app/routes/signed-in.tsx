import { Outlet } from "react-router";
import { appContext } from "#app-context";
import { requireSignedIn } from "../lib/access.ts";
import type { Route } from "./+types/signed-in";

// Runs before any loader below it, so no signed-in data is read for a guest.
export const middleware: Route.MiddlewareFunction[] = [
  ({ context, request }) => {
    requireSignedIn(context.get(appContext).user, request);
  },
];

export default function SignedIn() {
  return <Outlet />;
}
