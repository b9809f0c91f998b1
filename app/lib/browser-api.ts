import { type ApiClient, apiClient } from "./api-client.ts";

/**
 * The API base URL comes from the server's configuration (root loader). Client
 * actions cannot read loader data, so the root remembers it here when it renders.
 */
let baseUrl: string | undefined;

export function rememberApiBaseUrl(url: string): void {
  baseUrl = url;
}

/** The storefront's API client, for client actions and effects (never on the server). */
export function browserApi(): ApiClient {
  if (baseUrl === undefined) throw new Error("The API base URL is not known yet: the root route has not rendered.");
  return apiClient(baseUrl);
}
