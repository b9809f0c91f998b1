import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCartStore } from "./basket-store.ts";
import { rememberApiBaseUrl } from "./browser-api.ts";

interface Cart {
  items: string[];
}

// A real server whose basket reads wait until the test lets them answer, as a slow one does.
let answerRead: (() => void) | null = null;
let serverCart: Cart = { items: [] };
const server = createServer((req, res) => {
  if (req.url !== "/api/basket") return res.writeHead(404).end();
  const cartThen = serverCart;
  answerRead = () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ cart: cartThen }));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  rememberApiBaseUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const readArrived = async () => {
  while (!answerRead) await new Promise((r) => setTimeout(r, 5));
  const answer = answerRead;
  answerRead = null;
  return answer;
};

describe("the cart store", () => {
  it("keeps a write's cart when a read sent before it answers after it (a slow refresh after a refused removal)", async () => {
    const store = createCartStore<Cart>({ url: "/api/basket", fetchMessage: "Failed to fetch cart data." });
    serverCart = { items: ["drill", "panel"] };
    const refreshing = store.refresh();
    const answer = await readArrived();
    // The removal is sent again and answers first, with the line gone.
    serverCart = { items: ["drill"] };
    store.set({ items: ["drill"] });
    answer();
    await refreshing;
    expect(store.current()).toEqual({ cart: { items: ["drill"] }, loading: false, error: null });

    // A read sent after the write is the news, and is shown.
    const again = store.refresh();
    (await readArrived())();
    await again;
    expect(store.current().cart).toEqual({ items: ["drill"] });
  });
});
