// The forms that move a row of an ordered list up or down.
import { describe, expect, it } from "vitest";
import { MoveButtons } from "./move-buttons.tsx";
import { renderAt, tags } from "./render-for-test.tsx";

describe("MoveButtons", () => {
  it("posts the move with the row's id and direction, named for the row; the first row cannot go up", () => {
    const html = renderAt("/admin/categories", <MoveButtons id={7} name="Tools" first last={false} busy={false} buttonClassName="btn-secondary" labels={{ up: "↑", down: "↓" }} />);
    expect(tags(html, "form")).toHaveLength(2);
    expect(tags(html, "input").filter((i) => i.name === "direction").map((i) => i.value)).toEqual(["up", "down"]);
    expect(tags(html, "input").filter((i) => i.name === "id").map((i) => i.value)).toEqual(["7", "7"]);
    expect(html).toMatch(/<button type="submit" class="btn-secondary" disabled="" aria-label="Move Tools up">↑<\/button>/);
    expect(html).toMatch(/<button type="submit" class="btn-secondary" aria-label="Move Tools down">↓<\/button>/);
  });
});
