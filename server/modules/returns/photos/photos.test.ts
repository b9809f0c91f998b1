// Photos a customer attaches to a return (issue 31), through the API: the image
// pipeline's checks, who may see them, and the desk's view; never from /media.
import { eq, sql } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { DEMO_TRADE } from "../../../db/seed/index.ts";
import { TestBrowser } from "../../../test/browser.ts";
import { createOrderLinks } from "../../orders/links.ts";
import { multipart, testJpeg } from "../../media/test-photos.ts";
import { returnPhotos } from "../schema.ts";
import { type Placed, returnsFixture } from "../returns-fixture.ts";

const { t, db, nextIp, staffAs, product, placed, move } = returnsFixture();

describe("photos of a return", () => {
  const attach = (b: TestBrowser, url: string, files: Parameters<typeof multipart>[0], fields: Parameters<typeof multipart>[1] = []) => {
    const { body, headers } = multipart(files, fields);
    return b.request("POST", url, body, { headers });
  };
  const ask = async (o: Placed, reason = "faulty", query = "") => {
    const made = await o.buyer.post(`/api/orders/${o.number}/returns${query}`, { lines: [{ line_id: o.lines[0]!.id, quantity: 1, reason }], method: "post" });
    expect(made.statusCode, made.body).toBe(201);
    // The JSON contract is as it was: a return asked for has no photos yet.
    expect(made.json().data.photos).toEqual([]);
    return made.json().data.number as string;
  };

  /** A product ordered, `quantity` of it, and one of it asked back: the order, the return's number and its photos' URL. */
  const returnAsked = async (quantity: number) => {
    const p = await product();
    const o = await placed({ items: [{ productId: p.id, quantity }] });
    const rma = await ask(o);
    return { p, o, rma, url: `/api/orders/${o.number}/returns/${rma}/photos` };
  };

  it("attaches the customer's photos through the pipeline, lists them for the customer and shows them to the desk, never from a public URL", async () => {
    const { o, rma, url } = await returnAsked(1);
    const jpeg = await testJpeg(1800, 1200);
    const added = await attach(o.buyer, url, [{ filename: "crack.jpg", bytes: jpeg }], [["caption", "The crack in the handle"]]);
    expect(added.statusCode, added.body).toBe(201);
    const [photo] = added.json().data;
    expect(photo).toMatchObject({ caption: "The crack in the handle", width: 1280, height: 853, url: expect.stringMatching(new RegExp(`^/api/orders/${o.number}/returns/${rma}/photos/[a-z0-9]{12}/large$`)) });

    // The customer's list, and the photo itself: WebP, kept by their browser alone.
    const listed = await o.buyer.get(`/api/orders/${o.number}/returns`);
    expect(listed.json().data.find((r: { number: string }) => r.number === rma).photos).toEqual([photo]);
    const large = await o.buyer.get(photo.url);
    expect(large.statusCode).toBe(200);
    expect(large.headers["content-type"]).toBe("image/webp");
    expect(large.headers["cache-control"]).toBe("private, max-age=3600");
    expect((await sharp(large.rawPayload).metadata()).width).toBe(1280);
    expect((await sharp((await o.buyer.get(photo.thumbnail_url)).rawPayload).metadata()).width).toBe(320);

    // The desk: the return's page lists them, each served to staff.
    const owner = await staffAs("owner");
    const detail = await owner.get(`/api/admin/returns/${rma}`);
    const [desk] = detail.json().photos;
    expect(desk).toMatchObject({ id: photo.id, caption: "The crack in the handle", url: `/api/admin/returns/${rma}/photos/${photo.id}/large`, thumbnail_url: `/api/admin/returns/${rma}/photos/${photo.id}/small` });
    const seen = await owner.get(desk.thumbnail_url);
    expect(seen.statusCode).toBe(200);
    expect(seen.headers["content-type"]).toBe("image/webp");
    // A customer may not read the desk's door, and no file of it is under /media (the public folder).
    expect((await o.buyer.get(desk.url)).statusCode).toBe(401);
    const [row] = await db().select().from(returnPhotos).where(eq(returnPhotos.photoId, photo.id));
    expect(row!.renditions.map((r) => r.key)).toEqual([expect.stringMatching(/^returns\/[a-z0-9]{12}\/320w-[0-9a-f]{16}\.webp$/), expect.stringMatching(/^returns\/[a-z0-9]{12}\/1280w-[0-9a-f]{16}\.webp$/)]);
    for (const key of [...row!.renditions.map((r) => r.key), row!.originalKey]) expect((await o.buyer.get(`/media/${key}`)).statusCode).toBe(404);
  });

  it("refuses a fifth photo, a file that is not an image whatever its name, a HEIC photo with its reason, and a return that has moved on", async () => {
    const { o, rma, url } = await returnAsked(2);
    const small = await testJpeg(400, 300);

    const html = await attach(o.buyer, url, [{ filename: "photo.jpg", bytes: Buffer.from("<!doctype html><script>alert(1)</script>") }]);
    expect(html.statusCode).toBe(422);
    expect(html.json().message).toBe('"photo.jpg" is not a photo. Upload a JPEG, PNG, WebP, AVIF or HEIC photo.');
    // An iPhone's HEIC: known by its bytes, refused with what to do.
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from("ftypheic\0\0\0\0mif1heic", "latin1"), Buffer.alloc(64)]);
    const refusedHeic = await attach(o.buyer, url, [{ filename: "IMG_0001.HEIC", bytes: heic }]);
    expect(refusedHeic.statusCode).toBe(422);
    expect(refusedHeic.json().message).toContain("HEIC photo this server cannot read. Save it as JPEG");
    // One refused file refuses them all: nothing is added.
    expect((await attach(o.buyer, url, [{ filename: "good.jpg", bytes: small }, { filename: "notes.txt", bytes: Buffer.from("hello") }])).statusCode).toBe(422);
    expect(await db().select().from(returnPhotos).where(sql`${returnPhotos.returnId} = (select id from returns where number = ${rma})`)).toHaveLength(0);

    expect((await attach(o.buyer, url, [1, 2, 3].map((n) => ({ filename: `${n}.jpg`, bytes: small })))).statusCode).toBe(201);
    const tooMany = await attach(o.buyer, url, [{ filename: "4.jpg", bytes: small }, { filename: "5.jpg", bytes: small }]);
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors.file).toEqual(["A return may have at most 4 photos; this one has 3, so add at most 1."]);
    expect((await attach(o.buyer, url, [{ filename: "4.jpg", bytes: small }])).statusCode).toBe(201);
    expect((await attach(o.buyer, url, [{ filename: "5.jpg", bytes: small }])).json().errors.file).toEqual(["A return may have at most 4 photos; this one has 4, so add at most 0."]);
    // Five files in one body are cut at the parser's limit.
    const five = await attach(o.buyer, `/api/orders/${o.number}/returns/${await ask(o)}/photos`, [1, 2, 3, 4, 5].map((n) => ({ filename: `${n}.jpg`, bytes: small })));
    expect(five.statusCode).toBe(422);
    expect(five.json().message).toBe("Upload at most 4 photos at a time.");

    // Once the desk has moved it on past approved, no more photos.
    expect((await move("owner", rma, { to: "received" })).statusCode).toBe(200);
    const late = await attach(o.buyer, url, [{ filename: "late.jpg", bytes: small }]);
    expect(late.statusCode).toBe(409);
  });

  it("is someone else's return to another customer, asks a stranger to sign in, and lets a guest in with the order link's signature only", async () => {
    const { p, o, url } = await returnAsked(1);
    const small = await testJpeg(400, 300);
    const added = await attach(o.buyer, url, [{ filename: "a.jpg", bytes: small }]);
    const photoUrl = added.json().data[0].url as string;

    const stranger = new TestBrowser(t.shop.app, nextIp());
    await stranger.signIn(DEMO_TRADE.email, DEMO_TRADE.password);
    expect((await attach(stranger, url, [{ filename: "b.jpg", bytes: small }])).statusCode).toBe(403);
    expect((await stranger.get(photoUrl)).statusCode).toBe(403);
    const nobody = new TestBrowser(t.shop.app, nextIp());
    await nobody.csrf();
    expect((await attach(nobody, url, [{ filename: "b.jpg", bytes: small }])).statusCode).toBe(401);
    expect((await nobody.get(photoUrl)).statusCode).toBe(401);
    // Another order's return named under this order is not found.
    const other = await placed({ items: [{ productId: p.id, quantity: 1 }] });
    const otherRma = await ask(other);
    expect((await attach(o.buyer, `/api/orders/${o.number}/returns/${otherRma}/photos`, [{ filename: "c.jpg", bytes: small }])).statusCode).toBe(404);
    // Without the origin's CSRF token a cookie-borne write is refused, as every storefront write is.
    const { body, headers } = multipart([{ filename: "d.jpg", bytes: small }]);
    expect((await o.buyer.request("POST", url, body, { headers, csrf: false })).statusCode).toBe(419);

    // A guest's order: through the link's signature, and its photos' URLs carry it.
    const g = await placed({ who: "guest", items: [{ productId: p.id, quantity: 1 }] });
    const query = createOrderLinks(t.shop.config.cookieSecret).orderLink(g.number).split("?")[1]!;
    const guestRma = await ask(g, "damaged", `?${query}`);
    const guest = new TestBrowser(t.shop.app, nextIp());
    await guest.csrf();
    expect((await attach(guest, `/api/orders/${g.number}/returns/${guestRma}/photos?expires=9999999999&signature=forged`, [{ filename: "e.jpg", bytes: small }])).statusCode).toBe(403);
    const byLink = await attach(guest, `/api/orders/${g.number}/returns/${guestRma}/photos?${query}`, [{ filename: "e.jpg", bytes: small }]);
    expect(byLink.statusCode, byLink.body).toBe(201);
    const guestPhoto = byLink.json().data[0];
    expect(guestPhoto.url).toContain(`?${query}`);
    expect((await guest.get(guestPhoto.url)).statusCode).toBe(200);
    expect((await guest.get(guestPhoto.url.split("?")[0])).statusCode).toBe(401);
    const listed = await guest.get(`/api/orders/${g.number}/returns?${query}`);
    expect(listed.json().data[0].photos[0].thumbnail_url).toContain(`?${query}`);
  });
});

