import { Outlet } from "react-router";
import { appContext } from "#app-context";
import { requireGuest } from "../lib/access.ts";
import type { Route } from "./+types/guest-only";

// Runs before any loader below it: a signed-in user never sees these pages.
export const middleware: Route.MiddlewareFunction[] = [
  ({ context, request }) => {
    requireGuest(context.get(appContext).user, request);
  },
];

export default function GuestOnly() {
  return <Outlet />;
}
