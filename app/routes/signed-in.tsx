import { Outlet } from "react-router";
import { appContext } from "#app-context";
import { requireSignedIn } from "../lib/access.ts";
import type { Route } from "./+types/signed-in";

// Runs before any loader below it, so no signed-in data is read for a guest.
// A personal page's frame (ADR 0061) is rendered for a signed-in customer it does not name.
export const middleware: Route.MiddlewareFunction[] = [
  ({ context, request }) => {
    requireSignedIn(context.get(appContext).signedIn, request);
  },
];

export default function SignedIn() {
  return <Outlet />;
}
