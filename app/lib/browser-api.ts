import { type ApiClient, apiClient } from "./api-client.ts";

/**
 * The API base URL comes from the server's configuration (root loader). Client
 * actions cannot read loader data, so the root remembers it here when it renders.
 */
let baseUrl: string | undefined;
let known: (url: string) => void = () => {};
const baseUrlKnown = new Promise<string>((resolve) => {
  known = resolve;
});

export function rememberApiBaseUrl(url: string): void {
  baseUrl = url;
  known(url);
}

/**
 * The API client once the root has rendered: a client loader run on hydration
 * (ADR 0061) may start before the root's first render has said the base URL.
 */
export async function browserApiWhenReady(): Promise<ApiClient> {
  return apiClient(baseUrl ?? (await baseUrlKnown));
}

/** The storefront's API client, for client actions and effects (never on the server). */
export function browserApi(): ApiClient {
  if (baseUrl === undefined) throw new Error("The API base URL is not known yet: the root route has not rendered.");
  return apiClient(baseUrl);
}
