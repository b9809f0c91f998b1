import type { ReactNode } from "react";
import { Form } from "react-router";

/**
 * The forms that move a row of an ordered list (a photo, a category) one
 * place up or down: each posts intent "move" with the row's id and the
 * direction; the first row cannot go up, nor the last down. `name` is the
 * row's, for the buttons' accessible names ("Move photo 2 up").
 */
export function MoveButtons({ id, name, first, last, busy, buttonClassName, labels }: { id: number | string; name: string; first: boolean; last: boolean; busy: boolean; buttonClassName: string; labels: Record<"up" | "down", ReactNode> }) {
  return (["up", "down"] as const).map((direction) => (
    <Form method="post" key={direction}>
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="id" value={id} />
      <input type="hidden" name="direction" value={direction} />
      <button type="submit" className={buttonClassName} disabled={busy || (direction === "up" ? first : last)} aria-label={`Move ${name} ${direction}`}>
        {labels[direction]}
      </button>
    </Form>
  ));
}
