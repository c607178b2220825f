// What a request's URL says about how the gateway treats it.

/** The URL without its query string. */
export function pathOf(url: string): string {
  return url.split('?')[0];
}

/** The OpenAI API surface (authenticated), as opposed to the probes. */
export function isApiPath(path: string): boolean {
  return path === '/v1' || path.startsWith('/v1/');
}
