import { Fragment, type ReactNode } from "react";

/** A fact about a record: its name, what it is, and the detail's own classes (a long email that wraps). */
export type Fact = readonly [term: ReactNode, detail: ReactNode, className?: string];

/**
 * A record's facts as a description list's terms (bold) and details, inside
 * the screen's own `dl` (its grid). A fact given as false or null (one the
 * record lacks, or the member may not see) is left out.
 */
export function Facts({ facts }: { facts: readonly (Fact | false | null | undefined)[] }) {
  return facts.map((fact, i) =>
    fact ? (
      <Fragment key={i}>
        <dt className="font-semibold">{fact[0]}</dt>
        <dd className={fact[2]}>{fact[1]}</dd>
      </Fragment>
    ) : null,
  );
}

/** An email address as a link that writes to it. */
export function EmailLink({ email }: { email: string }) {
  return (
    <a href={`mailto:${email}`} className="link">
      {email}
    </a>
  );
}
