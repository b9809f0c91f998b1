import { type KeyboardEvent, useEffect, useRef } from "react";
import { useLocation } from "react-router";

/** Escape closes an open menu and hands the focus back to its summary, so the keyboard stays where the menu was. */
export function closeOnEscape(event: Pick<KeyboardEvent<HTMLDetailsElement>, "key" | "currentTarget">): void {
  const details = event.currentTarget;
  if (event.key === "Escape" && details.open) {
    details.open = false;
    details.querySelector("summary")?.focus();
  }
}

/**
 * A menu that is a native disclosure (touch, keyboard, no scripts needed to
 * open it): spread onto its `<details>`; it closes after a navigation and on
 * Escape. `ref` is the element, for a menu that also closes on other events.
 */
export function useMenuDetails() {
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location.key]);
  return { ref, onKeyDown: closeOnEscape };
}
