// Photos made for tests: nothing read from disk or fetched.
import sharp, { type Exif } from "sharp";

/** A photo-like JPEG: a gradient with shapes, so the encoders have something to do. */
export async function testJpeg(width: number, height: number, options: { exif?: Exif; orientation?: number } = {}): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#c83"/><stop offset="1" stop-color="#236"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${Math.min(width, height) / 4}" fill="#eee"/><rect x="${width / 2}" y="${height / 4}" width="${width / 3}" height="${height / 2}" fill="#222"/></svg>`;
  let image = sharp(Buffer.from(svg)).jpeg({ quality: 85 });
  if (options.exif) image = image.withExif(options.exif);
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  return image.toBuffer();
}

/** A multipart body with each file in a field named `file` (or as named), then any text fields. */
export function multipart(files: { filename: string; bytes: Buffer; type?: string; field?: string }[], fields: readonly (readonly [string, string])[] = []) {
  const boundary = `----tc${Math.random().toString(16).slice(2)}`;
  const parts = files.map((f) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field ?? "file"}"; filename="${f.filename}"\r\nContent-Type: ${f.type ?? "image/jpeg"}\r\n\r\n`),
      f.bytes,
      Buffer.from("\r\n"),
    ]),
  );
  const texts = fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  return { body: Buffer.concat([...parts, ...texts, Buffer.from(`--${boundary}--\r\n`)]), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
