// Money and dates in the back office's tables.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DateCell, MoneyCell } from "./cells.tsx";
import { tags } from "./render-for-test.tsx";

describe("MoneyCell", () => {
  it("formats pence and pounds the same way, in figures of one width", () => {
    expect(renderToStaticMarkup(<MoneyCell pence={123450} />)).toBe('<span class="whitespace-nowrap tabular-nums ">£1,234.50</span>');
    expect(renderToStaticMarkup(<MoneyCell pounds={-3} />)).toContain(">-£3.00<");
  });
});

describe("DateCell", () => {
  it("shows a calendar day in a time element that keeps the machine's value", () => {
    const html = renderToStaticMarkup(<DateCell value="2026-11-25" />);
    expect(tags(html, "time")[0]).toMatchObject({ dateTime: "2026-11-25" });
    expect(html).toContain(">25 Nov 2026</time>");
  });

  it("shows an instant in London time, with or without its time", () => {
    expect(renderToStaticMarkup(<DateCell value="2026-07-01T09:05:00Z" />)).toContain(">1 Jul 2026, 10:05<");
    expect(renderToStaticMarkup(<DateCell value="2026-07-01T23:30:00Z" dateOnly />)).toContain(">2 Jul 2026<");
  });

  it("shows a dash for no date", () => {
    expect(renderToStaticMarkup(<DateCell value={null} />)).toContain(">—<");
  });
});
