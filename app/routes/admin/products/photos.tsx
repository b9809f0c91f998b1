import { useState } from "react";
import { Form, Link, data, useNavigation, useRevalidator } from "react-router";
import { appContext } from "#app-context";
import { FieldError } from "../../../components/admin/field-error.tsx";
import { AdminHeading } from "../../../components/admin/frame.tsx";
import { ResultBanner } from "../../../components/admin/result-banner.tsx";
import { notFoundOr, requirePermission, requireSameOrigin, serviceError } from "../../../lib/admin/access.ts";
import { pageMeta } from "../../../lib/meta.ts";
import { can } from "../../../../server/modules/staff/permissions.ts";
import type { Route } from "./+types/photos";

export const meta: Route.MetaFunction = ({ matches, params }) => pageMeta(matches, `Photos of ${params.sku}`);

/** The largest form the screen's own upload takes: ten photos of 20 MB and their envelope. */
const FORM_MAX = 10 * 20 * 1024 * 1024 + 1024 * 1024;

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "catalogue.view");
  const { images } = await app.services.adminPhotos.list(actor, { kind: "product", sku: params.sku }).catch(notFoundOr);
  return { sku: params.sku, images, canManage: can(actor.role, "catalogue.manage") };
}

type Intent = "upload" | "move" | "alt" | "delete";
type ActionResult = { ok: boolean; intent: Intent; message: string; errors?: Record<string, string[]>; id?: string };

/** The forms without scripts: upload (multipart), move up or down, alt text, delete (confirmed). The service checks catalogue.manage. */
export async function action({ context, request, params }: Route.ActionArgs) {
  requireSameOrigin(request);
  const app = context.get(appContext);
  const actor = requirePermission(app.staff, request, "catalogue.view");
  const owner = { kind: "product" as const, sku: params.sku };
  const photos = app.services.adminPhotos;
  const length = Number(request.headers.get("content-length") ?? "0");
  if (!length || length > FORM_MAX) return data<ActionResult>({ ok: false, intent: "upload", message: "Upload at most 10 photos of 20 MB each at a time." }, { status: 413 });
  let intent: Intent = "upload";
  let id: string | undefined;
  try {
    photos.authorizeUpload(actor);
    const form = await request.formData();
    intent = String(form.get("intent") ?? "") as Intent;
    id = String(form.get("id") ?? "");
    if (intent === "upload") {
      const files = form.getAll("file").filter((f): f is File => typeof f !== "string" && f.size > 0);
      const done = await photos.upload(actor, owner, await Promise.all(files.map(async (f) => ({ filename: f.name, bytes: Buffer.from(await f.arrayBuffer()) }))));
      return data<ActionResult>({ ok: true, intent, message: `${files.length === 1 ? "Photo" : `${files.length} photos`} added. The product has ${done.images.length}.` });
    }
    const { images } = await photos.list(actor, owner);
    if (intent === "move") {
      const order = images.map((i) => i.id);
      const at = order.indexOf(id);
      const to = form.get("direction") === "up" ? at - 1 : at + 1;
      if (at < 0 || to < 0 || to >= order.length) return data<ActionResult>({ ok: false, intent, message: "That photo cannot move that way.", id }, { status: 422 });
      [order[at], order[to]] = [order[to]!, order[at]!];
      await photos.reorder(actor, owner, order);
      return data<ActionResult>({ ok: true, intent, message: `Photo moved ${to < at ? "up" : "down"} to position ${to + 1}.`, id });
    }
    if (intent === "alt") {
      const alt = String(form.get("alt") ?? "").trim();
      if (alt.length > 250) return data<ActionResult>({ ok: false, intent, message: "Check the alt text.", errors: { alt: ["Alt text may be at most 250 characters."] }, id }, { status: 422 });
      await photos.setAlt(actor, owner, id, alt);
      return data<ActionResult>({ ok: true, intent, message: alt ? "Alt text saved." : "Alt text cleared: the product cannot be published until every photo has some.", id });
    }
    if (intent === "delete") {
      if (form.get("confirm") !== "yes") return data<ActionResult>({ ok: false, intent, message: "Tick the box to confirm the delete.", errors: { confirm: ["Tick the box to confirm the delete."] }, id }, { status: 422 });
      await photos.remove(actor, owner, id);
      return data<ActionResult>({ ok: true, intent, message: "Photo deleted." });
    }
    return data<ActionResult>({ ok: false, intent: "upload", message: "Choose what to do with the photos." }, { status: 422 });
  } catch (error) {
    const known = serviceError(error);
    if (!known) throw error;
    if (known.status === 404 && intent !== "alt" && intent !== "move" && intent !== "delete") notFoundOr(error);
    return data<ActionResult>({ ok: false, intent, message: known.errors ? Object.values(known.errors).flat().join(" ") : known.message, errors: known.errors, id }, { status: known.status });
  }
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
function send(sku: string, file: File, onProgress: (percent: number) => void): Promise<{ ok: boolean; message: string }> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/admin/products/${encodeURIComponent(sku)}/images`);
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

export default function AdminProductPhotos({ loaderData, actionData }: Route.ComponentProps) {
  const { sku, images, canManage } = loaderData;
  const result = actionData as ActionResult | undefined;
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
      const answer = await send(sku, file, (percent) => setProgress((p) => p.map((x, j) => (j === at ? { ...x, percent } : x))));
      setProgress((p) => p.map((x, j) => (j === at ? { ...x, percent: 100, state: answer.ok ? "done" : "refused", message: answer.message } : x)));
    }
    await revalidator.revalidate();
  }

  return (
    <>
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link to="/admin/products" className="link">
          Products
        </Link>{" "}
        ›{" "}
        <Link to={`/admin/products/${encodeURIComponent(sku)}`} className="link">
          {sku}
        </Link>{" "}
        › Photos
      </nav>
      <AdminHeading title={`Photos of ${sku}`} intro="The first photo is the one listings show. Describe every photo (alt text) before the product is published." />
      {result ? (
        <ResultBanner ok={result.ok} result={result}>
          {result.message}
        </ResultBanner>
      ) : null}

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
        <p className={card}>No photos yet: the storefront shows the drawn picture.</p>
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
                      {(["up", "down"] as const).map((direction) => (
                        <Form method="post" key={direction}>
                          <input type="hidden" name="intent" value="move" />
                          <input type="hidden" name="id" value={image.id} />
                          <input type="hidden" name="direction" value={direction} />
                          <button type="submit" className={button} disabled={busy || (direction === "up" ? i === 0 : i === images.length - 1)} aria-label={`Move photo ${i + 1} ${direction}`}>
                            {direction === "up" ? "Move up" : "Move down"}
                          </button>
                        </Form>
                      ))}
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
