import { data } from "react-router";

/** Throw from a loader: the error page shows `Page Not Found: {path}` with status 404. */
export function notFound(): never {
  throw data("Not Found", { status: 404, statusText: "Not Found" });
}
