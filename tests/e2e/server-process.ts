// What the specs that run a shop process of their own share: where the project
// and its Node 24 are, and a free port to listen on.
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const node = path.join(root, "node_modules/.bin/node");

export { freePort } from "../../scripts/lib/free-port.ts";
