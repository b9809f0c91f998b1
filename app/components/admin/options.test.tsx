// A select's options built from a list.
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Options } from "./options.tsx";

describe("Options", () => {
  it("gives each item an option with its value and its words, in the list's order", () => {
    const branches = [
      { id: 2, name: "Leeds" },
      { id: 7, name: "York" },
    ];
    const html = renderToStaticMarkup(
      <select name="branch_id" defaultValue="7">
        <option value="">Choose a branch</option>
        <Options of={branches} value={(b) => b.id} label={(b) => b.name} />
      </select>,
    );
    expect(html).toBe('<select name="branch_id"><option value="">Choose a branch</option><option value="2">Leeds</option><option value="7" selected="">York</option></select>');
  });

  it("takes pairs of a value and a label", () => {
    const pairs = [
      ["bacs", "Bank transfer"],
      ["card", "Card"],
    ] as const;
    expect(renderToStaticMarkup(<Options of={pairs} value={([v]) => v} label={([, l]) => l} />)).toBe('<option value="bacs">Bank transfer</option><option value="card">Card</option>');
  });
});
