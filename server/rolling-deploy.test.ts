// A rolling deploy behind the shipped nginx site config (deploy/nginx/,
// docs/deploy.md): for a while machines of two releases answer, and a page
// from either names its own release's /assets/ files. nginx, passed a 404 for
// one of them, asks the next machine until one has it; a page's 404 is the
// answer as it is. Two small HTTP servers on loopback stand for the two
// releases (what matters here is nginx's behaviour, not the shop's); needs
// Debian's nginx, which .ci/run installs.
import { type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../scripts/lib/free-port.ts";
import { nginxInstalled, startNginx } from "./test/nginx.ts";
import { until } from "./test/until.ts";

/** A machine of one release: it has its own build's assets and nothing else; it counts what it was asked. */
function release(assets: string[]) {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    asked.push(req.url ?? "");
    if (req.url === "/healthz") return res.end("ok");
    const has = assets.includes(req.url ?? "");
    res.writeHead(has ? 200 : 404, { "content-type": has ? "text/javascript" : "text/html" });
    res.end(has ? `// ${req.url}` : "Not found");
  });
  return { server, asked };
}

const listen = (server: Server, port: number) => new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));

describe.skipIf(!nginxInstalled)("a rolling deploy behind nginx: two releases answer at once", () => {
  const old = release(["/assets/entry-OLD111.js"]);
  const fresh = release(["/assets/entry-NEW222.js"]);
  let nginx: ChildProcess;
  let dir = "";
  let base = "";

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "tc-rolling-"));
    const [a, b, port] = [await freePort(), await freePort(), await freePort()];
    await Promise.all([listen(old.server, a), listen(fresh.server, b)]);
    nginx = startNginx(dir, port, [a, b]);
    base = `http://127.0.0.1:${port}`;
    await until(async () => (await fetch(`${base}/healthz`).catch(() => null))?.ok, { what: "nginx", timeoutMs: 30_000 });
  }, 60_000);

  afterAll(async () => {
    nginx?.kill("SIGQUIT");
    await Promise.all([old.server, fresh.server].map((s) => new Promise((resolve) => s.close(resolve))));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("serves each release's assets whichever machine nginx asks first", async () => {
    // Round robin puts the first try on each machine in turn: both orders are covered.
    for (let i = 0; i < 6; i++) {
      for (const file of ["/assets/entry-OLD111.js", "/assets/entry-NEW222.js"]) {
        const res = await fetch(base + file);
        expect(res.status, file).toBe(200);
        expect(await res.text()).toBe(`// ${file}`);
      }
    }
    // And the machine without the file was asked first some of those times.
    expect(old.asked).toContain("/assets/entry-NEW222.js");
    expect(fresh.asked).toContain("/assets/entry-OLD111.js");
  });

  it("answers 404 for a file that no machine has, after asking each once", async () => {
    const before = old.asked.length + fresh.asked.length;
    expect((await fetch(`${base}/assets/entry-GONE000.js`)).status).toBe(404);
    expect(old.asked.length + fresh.asked.length - before).toBe(2);
  });

  it("does not retry a page's 404 on another machine", async () => {
    const before = old.asked.length + fresh.asked.length;
    expect((await fetch(`${base}/product/no-such-product`)).status).toBe(404);
    expect(old.asked.length + fresh.asked.length - before).toBe(1);
  });
});
