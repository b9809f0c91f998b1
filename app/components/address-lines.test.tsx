// A postal address a line each, as the order screens and the customers desk show it.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AddressLines } from "./address-lines.tsx";

describe("AddressLines", () => {
  it("puts each line in a block of its own and leaves out the empty ones", () => {
    const html = renderToStaticMarkup(<AddressLines lines={["Sam Builder", null, "4 Mill Lane", "", undefined, "Leeds", "LS1 4AP"]} />);
    expect(html).toBe('<address class="not-italic"><span class="block">Sam Builder</span><span class="block">4 Mill Lane</span><span class="block">Leeds</span><span class="block">LS1 4AP</span></address>');
  });
});
