import { useFetcher } from "react-router";
import { useHydrated } from "../lib/use-session.ts";

/** Posts to the root route's client action, which signs out and goes home. */
export function SignOutButton({ className = "btn-secondary" }: { className?: string }) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form method="post" action="/">
      <input type="hidden" name="intent" value="sign-out" />
      <button type="submit" className={`${className} disabled:cursor-not-allowed disabled:opacity-75`} disabled={!hydrated || busy}>
        {busy ? "Signing out…" : "Sign out"}
      </button>
    </fetcher.Form>
  );
}
