// "My branch" in the browser (issue 30): the `tc_branch` cookie the server sets
// (readable by the page, as the pages themselves are shared and cached), read
// and changed here. Shared by the branch pages and the product page.
import { browserApi } from "../../lib/browser-api.ts";

export const MY_BRANCH_COOKIE = "tc_branch";
/** Sent when "my branch" changes, so every part of the page showing it follows. */
export const MY_BRANCH_EVENT = "tc:my-branch";

/** The chosen branch's slug, or null (never on the server: there is no document). */
export function readMyBranch(): string | null {
  if (typeof document === "undefined") return null;
  const found = document.cookie.split("; ").find((c) => c.startsWith(`${MY_BRANCH_COOKIE}=`));
  const slug = found ? decodeURIComponent(found.slice(MY_BRANCH_COOKIE.length + 1)) : "";
  return /^[a-z0-9-]{1,80}$/.test(slug) ? slug : null;
}

/** Makes a branch the customer's (null: none); the server keeps it in the cookie and on the account. */
export async function chooseMyBranch(slug: string | null): Promise<void> {
  await browserApi().put("/api/my-branch", { branch: slug });
  window.dispatchEvent(new Event(MY_BRANCH_EVENT));
}
