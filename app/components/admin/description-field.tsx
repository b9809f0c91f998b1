import { type ComponentType, useEffect, useState } from "react";

type EditorProps = { html: string; onChange: (html: string) => void; label: string; describedBy?: string; invalid?: boolean; disabled?: boolean };

/**
 * The product's description: a plain HTML textarea (the form's field, and all
 * there is without scripts) that becomes a rich-text editor once the editor's
 * chunk has loaded; the editor writes its HTML back into the textarea, which
 * the form sends as before.
 */
export function DescriptionField({ id, name, defaultValue, describedBy, invalid, disabled, className }: { id: string; name: string; defaultValue: string; describedBy?: string; invalid?: boolean; disabled?: boolean; className: string }) {
  const [html, setHtml] = useState(defaultValue);
  const [Editor, setEditor] = useState<ComponentType<EditorProps> | null>(null);
  useEffect(() => {
    let live = true;
    // Only the back office's product form asks for it: the storefront's bundles never hold it.
    import("./rich-text-editor.tsx").then(
      (m) => live && setEditor(() => m.default),
      () => undefined, // no editor (a chunk that failed to load): the textarea stays
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <>
      {Editor ? <Editor html={defaultValue} onChange={setHtml} label="Description" describedBy={describedBy} invalid={invalid} disabled={disabled} /> : null}
      <textarea
        id={id}
        name={name}
        value={html}
        onChange={(e) => setHtml(e.currentTarget.value)}
        hidden={Editor !== null}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        rows={8}
        maxLength={20_000}
        className={className}
      />
    </>
  );
}
