import type { MetaDescriptor } from "react-router";

interface RootData {
  config?: { appName?: string };
}

type Match = { id: string; loaderData?: unknown; data?: unknown } | undefined;

/** The shop's name, from the root loader (APP_NAME). */
export function appNameFrom(matches: readonly Match[]): string {
  const root = matches.find((m) => m?.id === "root");
  const data = (root?.loaderData ?? root?.data) as RootData | undefined;
  return data?.config?.appName ?? "Tradecounter";
}

/** `{title} | {APP_NAME}`, with a description for search engines. */
export function pageMeta(matches: readonly Match[], title: string, description?: string): MetaDescriptor[] {
  const appName = appNameFrom(matches);
  return [{ title: `${title} | ${appName}` }, ...(description ? [{ name: "description", content: description }] : [])];
}
