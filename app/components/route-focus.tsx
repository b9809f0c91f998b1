import { useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";

/**
 * After a client-side move to another page, a screen reader hears nothing and
 * keyboard focus stays on the link that was followed (or falls back to the
 * top of the document when that link is gone). So: announce the new page's
 * title in a live region, and move focus to its heading, unless the page has
 * already put focus inside the main content itself (a form's error, say).
 * Changes of the query alone (filters, sorting, pages of a listing) keep focus
 * where it is: the visitor is still working the same page.
 */
export function RouteFocus() {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  const [announcement, setAnnouncement] = useState("");

  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const main = document.getElementById("main");
    if (main && !main.contains(document.activeElement)) {
      const heading = main.querySelector<HTMLElement>("h1");
      const target = heading ?? main;
      if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
      target.focus();
    }
    setAnnouncement(document.title);
  }, [pathname]);

  return (
    <div className="sr-only" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {announcement}
    </div>
  );
}
