// The confirm-with-reason action: a plain form that posts the reason and asks for it.
import { describe, expect, it } from "vitest";
import { ConfirmWithReason } from "./confirm-with-reason.tsx";
import { renderAt, tags } from "./render-for-test.tsx";

describe("ConfirmWithReason", () => {
  it("posts its hidden fields and a required, labelled reason", () => {
    const html = renderAt("/admin/returns/7", <ConfirmWithReason id="reject" fields={{ intent: "transition", to: "rejected" }} reason={{ label: "Reason (the customer is told)", required: true, maxLength: 1000 }} button="Reject return" />);
    expect(html).toMatch(/<form[^>]*method="post"/);
    expect(html).not.toContain("novalidate");
    expect(html).toContain('<input type="hidden" name="intent" value="transition"/>');
    expect(html).toContain('<input type="hidden" name="to" value="rejected"/>');
    expect(html).toMatch(/<label for="reject-reason"[^>]*>Reason \(the customer is told\)<\/label>/);
    expect(tags(html, "textarea")[0]).toMatchObject({ id: "reject-reason", name: "reason", required: "", maxLength: "1000" });
    expect(html).toMatch(/<button type="submit"[^>]*>Reject return<\/button>/);
  });

  it("asks for a tick before an action that cannot be undone, and shows the action's errors beside their fields", () => {
    const html = renderAt(
      "/admin/customers/3",
      <ConfirmWithReason id="block" fields={{ intent: "block" }} reason={{ label: "Reason (optional)", value: "Fraud" }} confirm="Yes, block Sam Carter." button="Block customer" errors={{ confirm: ["Tick the box to confirm the block."] }} noValidate />,
    );
    expect(tags(html, "input").find((i) => i.type === "checkbox")).toMatchObject({ name: "confirm", value: "yes", required: "", "aria-invalid": "true", "aria-describedby": "block-confirm-error" });
    expect(html).toMatch(/id="block-confirm-error"[^>]*><span class="sr-only">Error: <\/span>Tick the box to confirm the block.<\/span>/);
    expect(html).toContain(">Fraud</textarea>");
  });

  it("waits behind a disclosure button when given a summary, opened again by an error", () => {
    const shut = renderAt("/admin/hire/items/1", <ConfirmWithReason id="retire" summary="Retire unit" fields={{ intent: "retire-unit" }} reason={{ label: "Why", required: true }} button="Retire" />);
    expect(shut).toMatch(/<details class="group"><summary[^>]*>Retire unit<\/summary>/);
    const open = renderAt("/admin/hire/items/1", <ConfirmWithReason id="retire" summary="Retire unit" fields={{ intent: "retire-unit" }} reason={{ label: "Why", required: true }} button="Retire" errors={{ reason: ["Say why."] }} />);
    expect(open).toMatch(/<details class="group" open="">/);
  });
});
