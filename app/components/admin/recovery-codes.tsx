import { useEffect, useRef } from "react";

/** Ten recovery codes, shown once: what they are for and how to keep them. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="recovery-heading" className="grid gap-3 rounded-lg border-l-4 border-green-700 bg-green-50 p-5" data-testid="recovery-codes">
      <h2 id="recovery-heading" ref={heading} tabIndex={-1} className="text-lg font-bold text-green-900">
        Two-factor sign-in is on. Keep these recovery codes
      </h2>
      <p>Each code signs you in once if you lose your phone. They are shown only now: print them or keep them in a password manager.</p>
      <ul className="grid grid-cols-2 gap-2 font-mono text-lg sm:grid-cols-5">
        {codes.map((code) => (
          <li key={code} className="rounded bg-white px-2 py-1 text-center">
            {code}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The QR code to scan, with the secret to type for an app that cannot scan. */
export function TotpEnrolment({ qrSvg, secret }: { qrSvg: string; secret: string }) {
  return (
    <div className="grid gap-3 sm:grid-cols-[auto_1fr] sm:items-center">
      {/* The SVG is made on the server by the qrcode library from our own otpauth address: no user content. */}
      <div role="img" aria-label="QR code for your authenticator app" className="size-44 rounded border border-stone-200 bg-white p-1" dangerouslySetInnerHTML={{ __html: qrSvg }} />
      <div className="grid gap-1 text-sm">
        <p>Scan this with an authenticator app (such as Google Authenticator, Microsoft Authenticator or 1Password).</p>
        <p>
          Cannot scan? Enter this key: <code className="break-all rounded bg-stone-100 px-1 font-mono" data-testid="totp-secret">{secret}</code>
        </p>
      </div>
    </div>
  );
}
