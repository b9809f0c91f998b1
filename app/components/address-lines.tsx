/** A postal address, a line each, the empty ones (no company, no second line) left out. */
export function AddressLines({ lines, className = "not-italic" }: { lines: readonly (string | null | undefined)[]; className?: string }) {
  return (
    <address className={className}>
      {lines.filter(Boolean).map((line, i) => (
        <span key={i} className="block">
          {line}
        </span>
      ))}
    </address>
  );
}
