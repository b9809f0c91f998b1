// The page header: one h1, the crumbs before it, the actions beside it.
import { describe, expect, it } from "vitest";
import { PageHeader } from "./page-header.tsx";
import { renderAt } from "./render-for-test.tsx";

describe("PageHeader", () => {
  it("shows the crumbs, the title as the one heading, the intro and the actions", () => {
    const html = renderAt("/admin/products/SKU-1", <PageHeader title="Cordless drill" intro="A product of the shop." crumbs={[{ label: "Products", to: "/admin/products" }, { label: "Cordless drill" }]} actions={<a href="/x">View on the shop</a>} />);
    expect(html).toMatch(/<nav aria-label="Breadcrumb"[^>]*><span><a [^>]*href="\/admin\/products"[^>]*>Products<\/a><\/span><span> › Cordless drill<\/span><\/nav>/);
    expect(html.match(/<h1/g)).toHaveLength(1);
    expect(html).toContain(">Cordless drill</h1>");
    expect(html).toContain("A product of the shop.");
    expect(html.indexOf("View on the shop")).toBeGreaterThan(html.indexOf("</h1>"));
  });

  it("puts its links to other screens first, the primary one filled, then the other actions", () => {
    const html = renderAt("/admin/hire", <PageHeader title="Hire desk" links={[{ to: "/admin/hire/bookings/new", label: "New hire", primary: true }, { to: "/admin/hire/planner", label: "Planner" }]} actions={<button type="button">Print</button>} />);
    expect(html).toMatch(/<a [^>]*class="btn-primary"[^>]*href="\/admin\/hire\/bookings\/new"[^>]*>New hire<\/a><a [^>]*class="btn-secondary"[^>]*href="\/admin\/hire\/planner"[^>]*>Planner<\/a><button type="button">Print<\/button>/);
  });

  it("leaves out what it is not given", () => {
    const html = renderAt("/admin/orders", <PageHeader title="Orders" />);
    expect(html).not.toContain("Breadcrumb");
    expect(html).not.toContain("<p");
  });
});
