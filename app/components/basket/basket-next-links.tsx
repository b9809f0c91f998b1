import { Link } from "react-router";

/** After lines went into the basket (buy again, quick order): where to go next. */
export function BasketNextLinks({ className = "mt-2" }: { className?: string }) {
  return (
    <p className={`${className} flex flex-wrap gap-x-4 gap-y-1`}>
      <Link to="/basket" className="link">
        View your basket
      </Link>
      <Link to="/checkout" className="link">
        Go to checkout
      </Link>
    </p>
  );
}
