// Debian's nginx on loopback in front of test servers, with the repository's
// own site config (deploy/nginx/): its location blocks and the proxy settings
// they include, as they are. Only the upstream, the port and the files' paths
// are the test's. What is tested is what is shipped.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../../scripts/lib/shop-server.ts";

export const NGINX = "/usr/sbin/nginx";
export const nginxInstalled = existsSync(NGINX);

/** The shipped site config, with its includes pointing into the repository. */
export function shippedSite(): string {
  return readFileSync(path.join(projectRoot, "deploy/nginx/tradecounter.conf"), "utf8").replaceAll(
    "/etc/nginx/tradecounter/proxy.conf",
    path.join(projectRoot, "deploy/nginx/proxy.conf"),
  );
}

/** Every `location` block of the HTTPS server in the shipped site config. */
export function shippedLocations(): string {
  const site = shippedSite();
  const https = site.slice(site.indexOf("listen 443"));
  // Its blocks hold directives only, no nested braces.
  const blocks = https.match(/^[ \t]*location\b[^{]*\{[^}]*\}/gm) ?? [];
  if (blocks.length === 0) throw new Error("No location blocks in deploy/nginx/tradecounter.conf");
  return blocks.join("\n");
}

/** nginx on 127.0.0.1:`port` passing to the servers on `upstreams` (loopback ports) as the shipped site does. */
export function startNginx(dir: string, port: number, upstreams: number[]): ChildProcess {
  for (const sub of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(path.join(dir, sub), { recursive: true });
  const config = `
${process.getuid?.() === 0 ? "user root;" : ""}
worker_processes 1;
error_log ${dir}/error.log warn;
pid ${dir}/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream tradecounter {
    ${upstreams.map((p) => `server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join("\n    ")}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
${shippedLocations()}
  }
}`;
  const file = path.join(dir, "nginx.conf");
  writeFileSync(file, config);
  execFileSync(NGINX, ["-t", "-c", file, "-p", dir], { stdio: "pipe" });
  return spawn(NGINX, ["-c", file, "-p", dir, "-g", "daemon off;"], { stdio: ["ignore", "ignore", "inherit"] });
}
