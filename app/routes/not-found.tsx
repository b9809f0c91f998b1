import { notFound } from "../lib/not-found.ts";

// Every unknown path (any method) ends here and renders the 404 error page.
export function loader() {
  notFound();
}

export function action() {
  notFound();
}

export default function NotFound() {
  return null;
}
