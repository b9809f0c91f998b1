// The staff screens' role choice and form button.
import { describe, expect, it } from "vitest";
import { IntentSubmit, RoleSelect } from "./role-select.tsx";
import { renderAt, tags } from "./render-for-test.tsx";

describe("RoleSelect", () => {
  it("offers every role, 'Choose a role' first when asked, described by its error", () => {
    const html = renderAt("/admin/staff", <RoleSelect id="invite-role" value="" errors={["Choose a role."]} choose />);
    expect(tags(html, "option").map((o) => o.value)).toEqual(["", "owner", "manager", "sales", "warehouse", "hire", "accounts"]);
    expect(tags(html, "select")[0]).toMatchObject({ id: "invite-role", "aria-invalid": "true", "aria-describedby": "invite-role-error" });
  });
});

describe("IntentSubmit", () => {
  it("is the form's own submit button, on a row of its own, with its label while nothing is sent", () => {
    expect(renderAt("/admin/staff/tokens", <IntentSubmit intent="create" busyLabel="Creating…">Create token</IntentSubmit>)).toBe('<div class="sm:col-span-2"><button type="submit" class="btn-primary disabled:opacity-75">Create token</button></div>');
  });
});
