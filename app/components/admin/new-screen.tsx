import { type ComponentProps, Fragment, type ReactNode } from "react";
import { PageHeader } from "./page-header.tsx";
import { ActionResultBanner } from "./result-banner.tsx";

/**
 * A screen that creates something: its header, the last refusal's banner, and
 * its form, given a new key after each refusal so that it shows what was sent
 * (the values the action handed back) rather than what it held before.
 */
export function NewScreen({ result, children, ...header }: ComponentProps<typeof PageHeader> & { result: { ok: boolean; message: string; values?: unknown } | undefined; children: ReactNode }) {
  return (
    <>
      <PageHeader {...header} />
      <ActionResultBanner result={result} />
      <Fragment key={JSON.stringify(result?.values ?? null)}>{children}</Fragment>
    </>
  );
}
