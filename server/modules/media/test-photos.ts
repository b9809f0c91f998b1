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
