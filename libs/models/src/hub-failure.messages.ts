// Words for the ways a Hub request fails, naming the repository, revision and file involved.
import type { HubSource } from './model-spec';

/** Why a response with an error status failed, using the Hub's `X-Error-Code` when it sends one. */
export function describeHubStatus(
  response: Response,
  source: HubSource,
  file: string | undefined,
  tokenSet: boolean,
): string {
  const where = `${source.repo} at revision ${source.revision}`;
  const hubSays = response.headers.get('x-error-message');
  const said = hubSays === null ? '' : ` (the Hub says: ${hubSays})`;
  if (response.headers.get('x-error-code') === 'GatedRepo') {
    return (
      `${source.repo} is a gated repository (${response.status})${said}: accept its conditions on the Hub, ` +
      'then set HF_TOKEN to a token of that account'
    );
  }
  switch (response.status) {
    case 401:
      return (
        `the Hub refused access (401) to ${file === undefined ? where : `${file} in ${where}`}${said}: ` +
        (tokenSet
          ? 'HF_TOKEN was not accepted; check the token and that the repository name is right'
          : 'the repository does not exist, or it is private or gated and needs HF_TOKEN')
      );
    case 403:
      return (
        `access to ${where} is forbidden (403)${said}: the repository is gated or private; ` +
        'accept its conditions on the Hub with the account whose token is in HF_TOKEN'
      );
    case 404:
      if (file !== undefined) return `${file} was not found in ${where} (404)${said}`;
      if (response.headers.get('x-error-code') === 'RevisionNotFound') {
        return `revision "${source.revision}" of ${source.repo} was not found (404)${said}`;
      }
      return `repository ${source.repo} (revision ${source.revision}) was not found on the Hub (404)${said}`;
    case 429:
      return `the Hub is rate-limiting requests (429)${said}; set HF_TOKEN or try again later`;
    default:
      return `the Hub answered ${response.status} ${response.statusText} for ${file ?? 'the file list'} of ${where}${said}`;
  }
}

/** The cause of a request that got no response: DNS failure, refused or reset connection. */
export function describeNetworkFailure(error: unknown): string {
  // Duck-typed: fetch's errors come from Node's own realm, where `instanceof Error` can fail.
  const cause = isErrorLike(error) ? error.cause : undefined;
  if (isErrorLike(cause)) {
    // Happy-eyeballs tries every address of a host and reports each failure.
    const first = Array.isArray(cause.errors) ? cause.errors.find(isErrorLike) : undefined;
    return first?.message || cause.message || cause.code || cause.name;
  }
  return isErrorLike(error) ? error.message : String(error);
}

interface ErrorLike {
  readonly name: string;
  readonly message: string;
  readonly code?: string;
  readonly cause?: unknown;
  readonly errors?: unknown;
}

function isErrorLike(value: unknown): value is ErrorLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ErrorLike).name === 'string' &&
    typeof (value as ErrorLike).message === 'string'
  );
}
