// The photo pipeline with real files made here: hostile uploads refused
// before anything is decoded, EXIF location gone, renditions' types and widths.
import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { testJpeg } from "./test-photos.ts";
import { PHOTO_MAX_BYTES, PhotoRefused, inspectPhoto, keysOf, photoEntry, processPhoto, sniffPhotoType, widthsFor } from "./photos.ts";

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real, valid PNG of 20,000 × 20,000 black-and-white pixels: tiny on disk, 1.2 GB once decoded to RGB. */
function decompressionBomb(): Buffer {
  const side = 20_000;
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth 1
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + side / 8) * side); // each row: filter byte 0, then zero bits
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk("IHDR", header), pngChunk("IDAT", deflateSync(rows, { level: 9 })), pngChunk("IEND", Buffer.alloc(0))]);
}

async function refusal(bytes: Buffer, name: string): Promise<string> {
  const error = await processPhoto(bytes, name).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, name).toBeInstanceOf(PhotoRefused);
  expect((error as PhotoRefused).statusCode).toBe(422);
  return (error as PhotoRefused).message;
}

describe("the upload guards", () => {
  it("refuses a decompression bomb from its header, without decoding it", async () => {
    const bomb = decompressionBomb();
    expect(bomb.length).toBeLessThan(200_000);
    expect((await sharp(bomb, { limitInputPixels: false }).metadata()).width).toBe(20_000);
    const started = performance.now();
    expect(await refusal(bomb, "bomb.png")).toBe("bomb.png is 20000 × 20000 pixels (400 megapixels); a photo may be at most 50 megapixels.");
    // Decoding 400 million pixels takes seconds and a gigabyte; the header takes milliseconds.
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("refuses HTML named photo.jpg, an SVG with a script, and anything else that is not a photo", async () => {
    const html = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script><img src=x onerror=alert(1)></body></html>');
    expect(await refusal(html, "photo.jpg")).toBe("photo.jpg is not a photo. Upload a JPEG, PNG, WebP, AVIF or HEIC photo.");
    const svg = Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(1)</script><rect width="100" height="100"/></svg>');
    expect(await refusal(svg, "drill.svg")).toMatch(/^drill\.svg is not a photo\./);
    // The same SVG with a JPEG's name and a PNG's first bytes faked is still refused: its header cannot be read as PNG.
    expect(await refusal(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), svg]), "drill.png")).toMatch(/could not be read/);
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#f00" } }).gif().toBuffer();
    expect(await refusal(gif, "anim.gif")).toMatch(/is not a photo/);
    expect(await refusal(Buffer.alloc(0), "empty.jpg")).toMatch(/is empty/);
  });

  it("refuses a file over 20 MB before reading it", async () => {
    const big = Buffer.alloc(PHOTO_MAX_BYTES + 1024 * 1024, 0);
    big.set([0xff, 0xd8, 0xff, 0xe0]);
    expect(await refusal(big, "huge.jpg")).toBe("huge.jpg is 21.0 MB; a photo may be at most 20 MB.");
  });

  it("refuses a damaged photo with a clear message", async () => {
    const jpeg = await testJpeg(800, 600);
    expect(await refusal(jpeg.subarray(0, Math.floor(jpeg.length / 2)), "half.jpg")).toMatch(/^half\.jpg could not be read: it may be damaged or incomplete/);
  });

  it("knows the types from their bytes, HEIC included, which this server's sharp cannot decode", async () => {
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypheic\0\0\0\0mif1heic", "latin1"), Buffer.alloc(64)]);
    expect(sniffPhotoType(heic)).toBe("heic");
    expect(await refusal(heic, "IMG_0001.HEIC")).toMatch(/^IMG_0001\.HEIC is a HEIC photo this server cannot read\. Save it as JPEG/);
    const avif = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#0a0" } }).avif().toBuffer();
    expect(sniffPhotoType(avif)).toBe("avif");
    expect(await inspectPhoto(avif)).toEqual({ type: "avif", width: 16, height: 16 });
  });
});

describe("the renditions", () => {
  it("makes AVIF and WebP at 320, 640, 960 and 1600 wide, hashed keys, the 960 WebP as src, in about a second", async () => {
    const jpeg = await testJpeg(4000, 3000);
    const started = performance.now();
    const photo = await processPhoto(jpeg, "site.jpg");
    const took = performance.now() - started;
    expect(took, `took ${Math.round(took)} ms`).toBeLessThan(4000);
    expect(photo).toMatchObject({ type: "jpeg", width: 4000, height: 3000 });
    expect(photo.renditions.map((r) => `${r.type} ${r.width}×${r.height}`)).toEqual([
      "image/avif 320×240",
      "image/avif 640×480",
      "image/avif 960×720",
      "image/avif 1600×1200",
      "image/webp 320×240",
      "image/webp 640×480",
      "image/webp 960×720",
      "image/webp 1600×1200",
    ]);
    for (const r of photo.renditions) {
      const meta = await sharp(r.bytes).metadata();
      expect(meta.format).toBe(r.type === "image/avif" ? "heif" : "webp");
      if (r.type === "image/avif") expect(meta.compression).toBe("av1");
      expect(meta.width).toBe(r.width);
      expect(r.key).toMatch(new RegExp(`^photos/${photo.id}/${r.width}w-[0-9a-f]{16}\\.${r.type === "image/avif" ? "avif" : "webp"}$`));
    }
    expect(photo.original).toMatchObject({ bytes: jpeg, contentType: "image/jpeg" });
    const entry = photoEntry(photo, "A site photo");
    expect(entry).toMatchObject({ id: photo.id, alt: "A site photo", width: 1600, height: 1200, src: `/media/${photo.renditions[6]!.key}` });
    expect(entry.sources!.map((s) => s.type)).toEqual(["image/avif", "image/webp"]);
    expect(entry.sources![0]!.srcset).toBe(photo.renditions.slice(0, 4).map((r) => `/media/${r.key} ${r.width}w`).join(", "));
    expect(photo.original.key).toBe(`originals/${photo.id}.jpg`);
    expect(keysOf(entry)).toEqual(expect.arrayContaining([photo.original.key, ...photo.renditions.map((r) => r.key)]));
    expect(keysOf({ src: "/images/products/a/1.svg", alt: "Drawn" })).toEqual([]);
  });

  it("never makes a rendition wider than the photo", async () => {
    expect(widthsFor(200)).toEqual([200]);
    expect(widthsFor(700)).toEqual([320, 640, 700]);
    expect(widthsFor(1600)).toEqual([320, 640, 960, 1600]);
    expect(widthsFor(5000)).toEqual([320, 640, 960, 1600]);
    const photo = await processPhoto(await testJpeg(700, 500));
    expect(photo.renditions.filter((r) => r.type === "image/webp").map((r) => r.width)).toEqual([320, 640, 700]);
    expect(photoEntry(photo).src).toContain("/700w-");
  });

  it("makes what another caller asks: its own folder, widths and formats (a return's photos)", async () => {
    expect(widthsFor(900, [320, 1280])).toEqual([320, 900]);
    const photo = await processPhoto(await testJpeg(2000, 1500), "dent.jpg", "abcdefabcdef", { folder: "returns", widths: [320, 1280], formats: ["image/webp"] });
    expect(photo.renditions.map((r) => [r.type, r.width, r.height])).toEqual([
      ["image/webp", 320, 240],
      ["image/webp", 1280, 960],
    ]);
    for (const r of photo.renditions) expect(r.key).toMatch(/^returns\/abcdefabcdef\/(320|1280)w-[0-9a-f]{16}\.webp$/);
    expect(photo.original.key).toBe("originals/abcdefabcdef.jpg");
  });

  it("strips EXIF, GPS location included, and turns the photo upright first", async () => {
    const gps = { IFD0: { Copyright: "Site manager", Artist: "Sam Site" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "53/1 47/1 3600/100", GPSLongitudeRef: "W", GPSLongitude: "1/1 32/1 4800/100", GPSMapDatum: "WGS-84" } };
    // A landscape picture stored sideways, as a phone held upright writes it: orientation 6 turns it a quarter clockwise.
    const jpeg = await testJpeg(1200, 800, { exif: gps, orientation: 6 });
    const before = await sharp(jpeg).metadata();
    expect(before.exif?.toString("latin1")).toContain("WGS-84");
    expect(before.exif?.toString("latin1")).toContain("Sam Site");
    expect(before.orientation).toBe(6);
    const photo = await processPhoto(jpeg);
    expect(photo).toMatchObject({ width: 800, height: 1200 });
    for (const r of photo.renditions) {
      const meta = await sharp(r.bytes).metadata();
      expect(meta.exif, r.key).toBeUndefined();
      expect(meta.xmp, r.key).toBeUndefined();
      expect(meta.orientation ?? 1, r.key).toBe(1);
      expect(r.height, r.key).toBeGreaterThan(r.width);
      expect(r.bytes.includes(Buffer.from("Sam Site")), r.key).toBe(false);
      expect(r.bytes.includes(Buffer.from("WGS-84")), r.key).toBe(false);
    }
  });
});
