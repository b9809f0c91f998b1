import { Link } from "react-router";

export const countButtonClass = "relative inline-flex min-h-11 min-w-11 items-center justify-center gap-1 rounded-md px-2 hover:bg-white/10";

export const countLabel = (label: string, count: number) => `${label}, ${count} ${count === 1 ? "item" : "items"}`;

/** The icon, the label on wide screens and the count badge of a header basket entry. */
export function CountContent(props: { label: string; count: number; icon: React.ReactNode; testId: string }) {
  return (
    <>
      {props.icon}
      <span className="hidden text-sm font-medium lg:inline">{props.label}</span>
      {/* Not drawn (a flex container drops it), but it keeps the visible words "Basket 2" apart, as in the name. */}
      {" "}
      <span
        className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-accent-400 px-1 text-center text-xs font-bold leading-5 text-stone-900 lg:static"
        aria-hidden="true"
        data-testid={props.testId}
      >
        {props.count}
      </span>
    </>
  );
}

/** A header link to a basket page with its count. */
export function CountButton(props: { to: string; label: string; count: number; icon: React.ReactNode }) {
  return (
    <Link to={props.to} className={countButtonClass} aria-label={countLabel(props.label, props.count)}>
      <CountContent label={props.label} count={props.count} icon={props.icon} testId={`${props.to.slice(1)}-count`} />
    </Link>
  );
}
