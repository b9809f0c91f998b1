// The filter form kit: a GET form whose fields and buttons keep the list's other filters.
import { describe, expect, it } from "vitest";
import { FilterCheck, FilterDate, FilterForm, FilterSearch, FilterSelect } from "./filter-form.tsx";
import { renderAt, tags } from "./render-for-test.tsx";
import { SearchFilter } from "./search-filter.tsx";

describe("FilterForm", () => {
  const html = renderAt(
    "/admin/orders?status=paid&q=drill",
    <FilterForm label="Filter orders" keep={{ status: "paid", branch: undefined }} extra={<FilterCheck name="no_photo" label="Without a photo" checked />}>
      <FilterSearch value="drill" placeholder="Order number" />
      <FilterSelect name="fulfilment" label="Delivery or collection" value="collection" any="Either" options={[["delivery", "Delivery"], ["collection", "Collection"]]} />
      <FilterDate name="from" label="From" value="2026-11-01" />
    </FilterForm>,
  );

  it("is a search landmark sent by GET", () => {
    expect(tags(html, "form")[0]).toMatchObject({ method: "get", role: "search", "aria-label": "Filter orders" });
  });

  it("carries the kept filters, and Clear keeps them too", () => {
    expect(html).toContain('<input type="hidden" name="status" value="paid"/>');
    expect(html).not.toContain('name="branch"');
    expect(html).toMatch(/<a [^>]*href="\/admin\/orders\?status=paid"[^>]*>Clear<\/a>/);
  });

  it("labels each field and shows the values the address holds", () => {
    const inputs = tags(html, "input");
    expect(html).toMatch(/<label[^>]*>Search<input /);
    expect(inputs.find((i) => i.name === "q")).toMatchObject({ type: "search", value: "drill", placeholder: "Order number" });
    expect(html).toMatch(/<label[^>]*>Delivery or collection<select [^>]*><option value="">Either<\/option><option value="delivery">Delivery<\/option><option value="collection" selected="">/);
    expect(tags(html, "select")[0]).toMatchObject({ name: "fulfilment" });
    expect(html).toMatch(/<label[^>]*>From<input /);
    expect(inputs.find((i) => i.name === "from")).toMatchObject({ type: "date", value: "2026-11-01" });
    expect(inputs.find((i) => i.name === "no_photo")).toMatchObject({ type: "checkbox", value: "1", checked: "" });
    expect(html).toContain("Without a photo");
  });
});

describe("SearchFilter", () => {
  it("is the search box and one choice on the same kit", () => {
    const html = renderAt("/admin/hire", <SearchFilter label="Filter hire items" query={undefined} placeholder="Name" choice={{ name: "category", label: "Category", value: 3, options: [{ value: 3, label: "Access" }] }} />);
    expect(html).toMatch(/role="search" aria-label="Filter hire items"/);
    expect(html).toContain('<option value="3" selected="">Access</option>');
    expect(html).toMatch(/<a [^>]*href="\/admin\/hire\?"[^>]*>Clear<\/a>|<a [^>]*href="\/admin\/hire"[^>]*>Clear<\/a>/);
  });
});

describe("A refused filter", () => {
  it("says why after its name and points its control to the words", () => {
    const html = renderAt(
      "/admin/hire/planner?from=2026-02-30",
      <FilterForm label="Choose the days">
        <FilterDate name="from" label="From" value="2026-02-30" errors={["The first day (from) must be a real date."]} />
        <FilterSelect name="days" label="Days" value="90" any={null} options={[[7, "7 days"], ["90", "90 days"]]} errors={["Too many days."]} />
      </FilterForm>,
    );
    expect(tags(html, "input").find((i) => i.name === "from")).toMatchObject({ "aria-invalid": "true", "aria-describedby": "from-error", value: "2026-02-30" });
    expect(html).toContain('<span id="from-error" class="font-normal text-red-800">The first day (from) must be a real date.</span>');
    expect(tags(html, "select")[0]).toMatchObject({ "aria-invalid": "true", "aria-describedby": "days-error" });
    expect(html).toContain('<option value="90" selected="">90 days</option>');
  });
});
