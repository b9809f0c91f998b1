/** A field's error in the back office's forms, read out before the field; nothing when there is none. */
export function FieldError({ id, messages, className = "" }: { id?: string; messages: string[] | undefined; className?: string }) {
  if (!messages?.length) return null;
  return (
    <span id={id} className={`text-sm font-semibold text-red-700 ${className}`}>
      <span className="sr-only">Error: </span>
      {messages.join(" ")}
    </span>
  );
}
