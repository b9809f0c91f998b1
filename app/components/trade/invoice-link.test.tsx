// A trade invoice's number, linking to its page.
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { InvoiceLink } from "./invoice-link.tsx";

describe("InvoiceLink", () => {
  it("shows the invoice's number, linking to the invoice's page by its id", () => {
    const Stub = createRoutesStub([{ path: "/trade/invoices", Component: () => <InvoiceLink invoice={{ id: 42, number: "INV-000042" }} className="underline" /> }]);
    expect(renderToStaticMarkup(<Stub initialEntries={["/trade/invoices"]} />)).toBe('<a class="underline" href="/trade/invoices/view/42" data-discover="true">INV-000042</a>');
  });
});
