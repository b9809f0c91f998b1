// A record's facts in a description list.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { EmailLink, Facts } from "./facts.tsx";

describe("Facts", () => {
  it("gives each fact a bold term and its detail with the detail's classes, leaving out the ones not given", () => {
    const spent: number | undefined = undefined;
    const html = renderToStaticMarkup(
      <dl>
        <Facts facts={[["Email", <EmailLink email="sam@shop.test" />, "break-all"], spent !== undefined && ["Total spent", spent], ["Orders", 3]]} />
      </dl>,
    );
    expect(html).toBe('<dl><dt class="font-semibold">Email</dt><dd class="break-all"><a href="mailto:sam@shop.test" class="link">sam@shop.test</a></dd><dt class="font-semibold">Orders</dt><dd>3</dd></dl>');
  });
});
