import { useState } from "react";
import { Form, useNavigation, useRevalidator } from "react-router";
import type { PhotoActionResult } from "../../lib/admin/photo-action.ts";
import { FieldError } from "./field-error.tsx";
import { MoveButtons } from "./move-buttons.tsx";

/**
 * A product's or a hire item's photos in the back office: drop or choose
 * photos (each sent on its own to the JSON API with its progress and its own
 * refusal; a plain multipart form without scripts), then each photo with its
 * alt text, Move up/down and a confirmed delete. The screen's action is
 * `photoFormAction` (app/lib/admin/photo-action.ts).
 */
export interface ManagedPhoto {
  id: string;
  alt: string;
  src: string;
  width: number | null;
  height: number | null;
}

interface Progress {
  name: string;
  percent: number;
  state: "uploading" | "done" | "refused";
  message?: string;
}

function csrfToken(): string {
  const match = /(?:^|;\s*)tc_admin_csrf=([^;]+)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]!) : "";
}

/** One file to the JSON API, with its progress (XMLHttpRequest reports the upload's; fetch does not). */
function send(url: string, file: File, onProgress: (percent: number) => void): Promise<{ ok: boolean; message: string }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("x-admin-csrf", csrfToken());
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(Math.round((event.loaded / event.total) * 100));
    xhr.onload = () => {
      let message: string;
      try {
        message = (JSON.parse(xhr.responseText) as { message?: string }).message ?? "";
      } catch {
        message = "";
      }
      resolve({ ok: xhr.status === 201, message: xhr.status === 201 ? "Added." : message || `The upload failed (${xhr.status}).` });
    };
    xhr.onerror = () => resolve({ ok: false, message: "The connection failed. Try again." });
    const body = new FormData();
    body.append("file", file);
    xhr.send(body);
  });
}

const card = "rounded-lg border border-stone-200 bg-white p-4";
const button = "rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-semibold hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-offset-2 disabled:opacity-50";

export function PhotoManager({
  images,
  canManage,
  result,
  uploadUrl,
  emptyText = "No photos yet: the storefront shows the drawn picture.",
}: {
  images: ManagedPhoto[];
  canManage: boolean;
  result: PhotoActionResult | undefined;
  uploadUrl: string;
  /** What the storefront shows while there are none. */
  emptyText?: string;
}) {
  const busy = useNavigation().state === "submitting";
  const revalidator = useRevalidator();
  const [progress, setProgress] = useState<Progress[]>([]);
  const [dragging, setDragging] = useState(false);

  /** With scripts: each file on its own, one after another, each with its progress and its own refusal. */
  async function uploadAll(files: File[]) {
    const start = progress.length;
    setProgress((p) => [...p, ...files.map((f): Progress => ({ name: f.name, percent: 0, state: "uploading" }))]);
    for (const [i, file] of files.entries()) {
      const at = start + i;
      const answer = await send(uploadUrl, file, (percent) => setProgress((p) => p.map((x, j) => (j === at ? { ...x, percent } : x))));
      setProgress((p) => p.map((x, j) => (j === at ? { ...x, percent: 100, state: answer.ok ? "done" : "refused", message: answer.message } : x)));
    }
    await revalidator.revalidate();
  }

  return (
    <>
      {canManage ? (
        <section aria-labelledby="upload-heading" className={`${card} mb-6`}>
          <h2 id="upload-heading" className="mb-2 text-lg font-semibold">
            Add photos
          </h2>
          <Form
            method="post"
            encType="multipart/form-data"
            reloadDocument
            onSubmit={(event) => {
              const input = event.currentTarget.elements.namedItem("file") as HTMLInputElement;
              if (!input.files?.length) return;
              event.preventDefault();
              void uploadAll([...input.files]);
              input.value = "";
            }}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(event) => {
              event.preventDefault();
              setDragging(false);
              void uploadAll([...event.dataTransfer.files]);
            }}
            className={`grid gap-3 rounded-md border-2 border-dashed p-4 sm:p-6 ${dragging ? "border-brand-700 bg-brand-50" : "border-stone-300"}`}
            data-testid="photo-drop"
          >
            <input type="hidden" name="intent" value="upload" />
            <label htmlFor="photo-files" className="font-semibold">
              Drop photos here, or choose them
            </label>
            <p id="photo-files-hint" className="text-sm text-stone-600">
              JPEG, PNG, WebP or AVIF, up to 20 MB and 50 megapixels each, 10 at a time. Location data is removed.
            </p>
            <input id="photo-files" name="file" type="file" multiple accept="image/jpeg,image/png,image/webp,image/avif,image/heic" aria-describedby="photo-files-hint" className="text-sm" />
            <div>
              <button type="submit" className={button} disabled={busy}>
                Upload
              </button>
            </div>
          </Form>
          {progress.length ? (
            <ul className="mt-3 grid gap-2" aria-live="polite" data-testid="upload-progress">
              {progress.map((p, i) => (
                <li key={i} className="grid gap-1 text-sm">
                  <span className="flex flex-wrap justify-between gap-2">
                    <span className="break-all font-semibold">{p.name}</span>
                    <span className={p.state === "refused" ? "text-red-800" : "text-stone-600"}>{p.state === "uploading" ? `${p.percent}%` : p.message}</span>
                  </span>
                  <progress max={100} value={p.percent} aria-label={`Upload of ${p.name}`} className="h-2 w-full" />
                </li>
              ))}
            </ul>
          ) : null}
        </section>
      ) : null}

      {images.length === 0 ? (
        <p className={card}>{emptyText}</p>
      ) : (
        <ol className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="photo-list">
          {images.map((image, i) => {
            const mine = result?.id === image.id ? result : undefined;
            return (
              <li key={image.id} className={`${card} grid content-start gap-3`}>
                <img src={image.src} alt="" width={image.width ?? 320} height={image.height ?? 240} loading="lazy" className="aspect-[4/3] w-full rounded bg-stone-100 object-contain" />
                <p className="text-sm text-stone-600">
                  Photo {i + 1} of {images.length}
                  {image.width ? ` · ${image.width} × ${image.height}` : ""}
                  {image.alt ? "" : " · no alt text yet"}
                </p>
                {canManage ? (
                  <>
                    <Form method="post" className="grid gap-1">
                      <input type="hidden" name="intent" value="alt" />
                      <input type="hidden" name="id" value={image.id} />
                      <label htmlFor={`alt-${image.id}`} className="text-sm font-semibold">
                        Alt text
                      </label>
                      <textarea id={`alt-${image.id}`} name="alt" defaultValue={image.alt} maxLength={250} rows={2} className="rounded-md border border-stone-300 p-2 text-sm" aria-describedby={mine?.errors?.alt ? `alt-${image.id}-error` : undefined} />
                      <FieldError id={`alt-${image.id}-error`} messages={mine?.intent === "alt" ? mine.errors?.alt : undefined} />
                      <div>
                        <button type="submit" className={button} disabled={busy}>
                          Save alt text
                        </button>
                      </div>
                    </Form>
                    <div className="flex flex-wrap gap-2">
                      <MoveButtons id={image.id} name={`photo ${i + 1}`} first={i === 0} last={i === images.length - 1} busy={busy} buttonClassName={button} labels={{ up: "Move up", down: "Move down" }} />
                    </div>
                    <Form method="post" className="flex flex-wrap items-center gap-2 border-t border-stone-200 pt-3">
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="id" value={image.id} />
                      <label className="flex items-center gap-2 text-sm">
                        <input type="checkbox" name="confirm" value="yes" required /> Yes, delete this photo
                      </label>
                      <button type="submit" className={`${button} border-red-700 text-red-800`} disabled={busy} aria-label={`Delete photo ${i + 1}`}>
                        Delete
                      </button>
                      <FieldError messages={mine?.intent === "delete" ? mine.errors?.confirm : undefined} />
                    </Form>
                  </>
                ) : null}
              </li>
            );
          })}
        </ol>
      )}
    </>
  );
}
