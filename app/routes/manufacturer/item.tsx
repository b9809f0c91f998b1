import { notFound } from "../../lib/not-found.ts";

// No brands exist yet, so every address here is an honest 404.
export function loader() {
  notFound();
}

export default function Page() {
  return null;
}
