import type { ReactNode } from "react";
import { Link, useSearchParams } from "react-router";

/** `path` with where the visitor was going (this page's `redirect`), so signing in or registering there still takes them on. */
export function useKeepRedirect(path: string): string {
  const [params] = useSearchParams();
  const target = params.get("redirect");
  return target ? `${path}?${new URLSearchParams({ redirect: target })}` : path;
}

/** Under a sign-in, registration or recovery form: the way to the other one ("New here? Create an account"). */
export function AuthSwitch({ question, to, children }: { question: string; to: string; children: ReactNode }) {
  return (
    <p className="mt-6 text-center">
      {question}{" "}
      <Link className="link font-semibold" to={to}>
        {children}
      </Link>
    </p>
  );
}
