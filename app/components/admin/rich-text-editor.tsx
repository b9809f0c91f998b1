// TipTap (ADR 0057): loaded by description-field.tsx with import() once the
// back office's product form runs, so neither the storefront nor a first
// paint without scripts ever carries it. The HTML it writes is cleaned again
// by the server (server/modules/catalog/products/sanitize.ts) like any description.
import { EditorContent, useEditor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import type { ReactNode } from "react";

interface Props {
  html: string;
  onChange: (html: string) => void;
  label: string;
  describedBy?: string;
  invalid?: boolean;
  disabled?: boolean;
}

export default function RichTextEditor({ html, onChange, label, describedBy, invalid, disabled }: Props) {
  const editor = useEditor({
    // Only what the sanitiser keeps: no code, strike-through or rules, headings from h2.
    extensions: [StarterKit.configure({ heading: { levels: [2, 3] }, code: false, codeBlock: false, strike: false, horizontalRule: false, link: { openOnClick: false, autolink: true, protocols: ["mailto"] } })],
    content: html,
    editable: !disabled,
    immediatelyRender: false,
    // The toolbar shows what is on where the cursor is: it follows every change.
    shouldRerenderOnTransaction: true,
    editorProps: {
      attributes: {
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": label,
        ...(describedBy ? { "aria-describedby": describedBy } : {}),
        ...(invalid ? { "aria-invalid": "true" } : {}),
        // The storefront's description styles (app/routes/product.tsx), so what is typed looks as it will.
        class: "min-h-40 space-y-3 px-3 py-2 outline-none [&_a]:text-brand-700 [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:border-stone-300 [&_blockquote]:pl-3 [&_h2]:text-lg [&_h2]:font-bold [&_h3]:font-bold [&_li]:mt-1 [&_ol]:list-decimal [&_ol]:pl-5 [&_ul]:list-disc [&_ul]:pl-5",
        "data-testid": "description-editor",
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? "" : e.getHTML()),
  });
  if (!editor) return null;
  // Read on each render: the editor re-renders this on every transaction (shouldRerenderOnTransaction).
  const state = {
    bold: editor.isActive("bold"),
    italic: editor.isActive("italic"),
    h2: editor.isActive("heading", { level: 2 }),
    h3: editor.isActive("heading", { level: 3 }),
    bullets: editor.isActive("bulletList"),
    numbers: editor.isActive("orderedList"),
    quote: editor.isActive("blockquote"),
    link: editor.isActive("link"),
    undo: editor.can().undo(),
    redo: editor.can().redo(),
  };
  const chain = () => editor.chain().focus();
  const link = () => {
    if (state.link) return chain().unsetLink().run();
    const href = window.prompt("The link's web address (https://…)", "https://");
    if (!href || href === "https://") return;
    chain().extendMarkRange("link").setLink({ href }).run();
  };
  const button = (name: string, pressed: boolean | null, run: () => unknown, face: ReactNode, enabled = true) => (
    <button
      type="button"
      aria-label={name}
      title={name}
      aria-pressed={pressed === null ? undefined : pressed}
      disabled={disabled || !enabled}
      // A pointer press keeps the editor's focus and selection: else focus goes to the button and comes back
      // only on the next frame (TipTap's focus()), and what is typed straight after a click is lost.
      onMouseDown={(event) => event.preventDefault()}
      onClick={() => run()}
      className={`min-h-9 min-w-9 rounded px-2 text-sm ${pressed ? "bg-stone-800 text-white" : "bg-white text-stone-900 hover:bg-stone-100"} disabled:opacity-50`}
    >
      {face}
    </button>
  );
  return (
    <div className={`rounded-md border bg-white focus-within:ring-2 focus-within:ring-brand-600 ${invalid ? "border-red-700" : "border-stone-400"}`}>
      <div role="toolbar" aria-label={`${label}: formatting`} className="flex flex-wrap gap-1 border-b border-stone-200 bg-stone-50 p-1">
        {button("Bold", state.bold, () => chain().toggleBold().run(), <strong aria-hidden="true">B</strong>)}
        {button("Italic", state.italic, () => chain().toggleItalic().run(), <em aria-hidden="true">I</em>)}
        {button("H2 heading", state.h2, () => chain().toggleHeading({ level: 2 }).run(), <span aria-hidden="true">H2</span>)}
        {button("H3 sub-heading", state.h3, () => chain().toggleHeading({ level: 3 }).run(), <span aria-hidden="true">H3</span>)}
        {button("Bulleted list", state.bullets, () => chain().toggleBulletList().run(), <span aria-hidden="true">• Bulleted</span>)}
        {button("Numbered list", state.numbers, () => chain().toggleOrderedList().run(), <span aria-hidden="true">Numbered</span>)}
        {button("Quote", state.quote, () => chain().toggleBlockquote().run(), <span aria-hidden="true">“ ”</span>)}
        {button(state.link ? "Remove link" : "Link", state.link, link, <span aria-hidden="true">Link</span>)}
        {button("Undo", null, () => chain().undo().run(), <span aria-hidden="true">↶</span>, state.undo)}
        {button("Redo", null, () => chain().redo().run(), <span aria-hidden="true">↷</span>, state.redo)}
      </div>
      <EditorContent editor={editor} />
    </div>
  );
}
