// Fetches an http(s) image URL for the chat service (which never fetches anything itself),
// safely: the address policy is applied where the socket is opened — to the address a host
// name resolves to, inside the resolver callback that `net.connect` uses, so no second lookup
// can answer differently (no DNS rebinding window), and to an IP literal before it is
// connected to — on the first request and on every redirect, which are followed by hand (each
// one a new request through the same guard). A connect timeout, a total timeout (redirects
// included), a size cap enforced while reading, the Content-Type and the magic bytes bound
// what a URL can cost and what comes back.
//
// undici (the engine of Node's fetch) is the client: its connector takes `lookup` and passes it
// to net/tls.connect; nothing is decompressed (no Accept-Encoding is sent), no proxy variable
// is read.
import * as dns from 'node:dns';
import * as net from 'node:net';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import { AddressPolicy, AddressRefusal } from './address.policy';
import type { ImageBytes } from './image-bytes';
import { checkImageBytes, IMAGE_MIME_TYPES, mediaTypeOf } from './image-format.check';
import { ImageInputError, tooLarge } from './image-input.error';

export interface ImageFetchSettings {
  connectTimeoutMs: number;
  /** For the whole fetch, redirects included. */
  timeoutMs: number;
  maxRedirects: number;
  maxBytes: number;
}

/** dns.lookup's shape; tests pass a resolver of their own. */
export type Lookup = (
  hostname: string,
  options: dns.LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
) => void;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const SHOWN_URL_CHARS = 200;

export class ImageUrlFetcher {
  private readonly agent: Agent;

  constructor(
    private readonly settings: ImageFetchSettings,
    private readonly policy: AddressPolicy,
    lookup: Lookup = dns.lookup,
  ) {
    const connector = buildConnector({
      timeout: settings.connectTimeoutMs,
      lookup: this.guarded(lookup) as unknown as net.LookupFunction,
    });
    this.agent = new Agent({
      // An IP literal is connected to without a lookup: it is checked here, as are the
      // metadata host names (before any resolver is asked about them).
      connect: (options, callback) => {
        const { hostname } = options;
        const refusal = net.isIP(hostname)
          ? this.policy.refuseAddress(hostname)
          : this.policy.refuseHostName(hostname);
        if (refusal) callback(refusal, null);
        else connector(options, callback);
      },
      headersTimeout: settings.timeoutMs,
      bodyTimeout: settings.timeoutMs,
    });
  }

  /** The image at `url`; `signal` aborts it (the client went away). */
  async fetch(url: string, signal?: AbortSignal): Promise<ImageBytes> {
    const deadline = AbortSignal.timeout(this.settings.timeoutMs);
    const aborted = signal ? AbortSignal.any([signal, deadline]) : deadline;
    let current = httpUrl(url);
    for (let redirects = 0; ; redirects += 1) {
      const shown = shownUrl(current, redirects > 0 ? url : undefined);
      let response: Dispatcher.ResponseData;
      try {
        response = await request(current, {
          dispatcher: this.agent,
          signal: aborted,
          headers: { accept: IMAGE_MIME_TYPES.join(', '), 'user-agent': 'Tessera' },
        });
      } catch (error) {
        throw this.failure(error, shown, deadline);
      }
      const location = REDIRECTS.has(response.statusCode) ? response.headers.location : undefined;
      if (typeof location === 'string') {
        discard(response);
        if (redirects >= this.settings.maxRedirects) {
          throw cannotFetch(shown, `too many redirects (more than ${this.settings.maxRedirects})`);
        }
        current = httpUrl(redirectTarget(location, current), shown);
        continue;
      }
      try {
        return await this.readImage(response);
      } catch (error) {
        discard(response);
        throw this.failure(error, shown, deadline);
      }
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  private async readImage(response: Dispatcher.ResponseData): Promise<ImageBytes> {
    if (response.statusCode !== 200) {
      throw new ImageInputError(`the server answered HTTP ${response.statusCode}`);
    }
    const contentType = mediaTypeOf(String(response.headers['content-type'] ?? ''));
    if (!contentType.startsWith('image/')) {
      throw new ImageInputError(
        `it is not an image (content-type ${contentType.slice(0, 64) || 'missing'})`,
        'invalid_image_format',
      );
    }
    const { maxBytes } = this.settings;
    if (Number(response.headers['content-length'] ?? 0) > maxBytes) throw tooLarge(maxBytes);
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      length += chunk.length;
      // Stops reading as soon as the cap is crossed, whatever the headers said.
      if (length > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk);
    }
    const data = Buffer.concat(chunks, length);
    return { data, mimeType: checkImageBytes(data) };
  }

  /** A resolver that refuses the whole connection when any address of the name is refused. */
  private guarded(lookup: Lookup) {
    return (
      hostname: string,
      options: dns.LookupOptions,
      callback: (
        error: Error | null,
        address?: string | dns.LookupAddress[],
        family?: number,
      ) => void,
    ) => {
      lookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error);
        const hostAllowed = this.policy.allowsHost(hostname);
        for (const { address } of addresses) {
          const refusal = this.policy.refuseAddress(address, hostAllowed);
          if (refusal) return callback(refusal);
        }
        if (options.all) return callback(null, addresses);
        const [first] = addresses;
        if (!first) return callback(Object.assign(new Error('no address'), { code: 'ENOTFOUND' }));
        callback(null, first.address, first.family);
      });
    };
  }

  private failure(error: unknown, shown: string, deadline: AbortSignal): Error {
    if (error instanceof ImageInputError) return cannotFetch(shown, error.message, error.code);
    if (deadline.aborted) {
      return cannotFetch(shown, `timed out after ${seconds(this.settings.timeoutMs)}`);
    }
    const cause = (error as { cause?: unknown }).cause;
    if (error instanceof AddressRefusal) return cannotFetch(shown, `it ${error.message}`);
    if (cause instanceof AddressRefusal) return cannotFetch(shown, `it ${cause.message}`);
    const code = String((error as { code?: unknown }).code ?? '');
    return cannotFetch(shown, CONNECTION_ERRORS[code] ?? otherFailure(code, this.settings));
  }
}

const CONNECTION_ERRORS: Record<string, string> = {
  ENOTFOUND: 'its host name could not be resolved',
  EAI_AGAIN: 'its host name could not be resolved',
  ENODATA: 'its host name could not be resolved',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the connection was closed before the response was complete',
};

function otherFailure(code: string, settings: ImageFetchSettings): string {
  if (code === 'UND_ERR_CONNECT_TIMEOUT') {
    return `the connection timed out after ${seconds(settings.connectTimeoutMs)}`;
  }
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return `timed out after ${seconds(settings.timeoutMs)}`;
  }
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO/.test(code)) {
    return `its TLS certificate was not accepted (${code})`;
  }
  return code ? `the download failed (${code})` : 'the download failed';
}

/** Drops a response body unread: the connection is closed, its abort error expected. */
function discard(response: Dispatcher.ResponseData): void {
  response.body.on('error', () => undefined).destroy();
}

function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** The URL parsed, if http or https; `from` is the page that redirected to it. */
function httpUrl(text: string, from?: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    if (from) throw cannotFetch(from, `it redirects to '${clip(text)}', which is not a valid URL`);
    throw new ImageInputError(
      `'${clip(text)}' is not a valid URL; send an http(s) URL or a base64 data: URL`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    const why = `the URL scheme must be http or https, not '${clip(url.protocol.slice(0, -1))}'`;
    throw from
      ? cannotFetch(from, `it redirects to ${clip(text)}: ${why}`)
      : new ImageInputError(why);
  }
  return url;
}

/** A Location header against the URL that sent it; unparsable stays as sent (refused next). */
function redirectTarget(location: string, base: URL): string {
  try {
    return new URL(location, base).href;
  } catch {
    return location;
  }
}

function cannotFetch(
  shown: string,
  why: string,
  code: ImageInputError['code'] = 'invalid_image_url',
): ImageInputError {
  return new ImageInputError(`cannot fetch ${shown}: ${why}`, code);
}

/** The URL as the 400 names it: without credentials, clipped, and where a redirect came from. */
function shownUrl(url: URL, redirectedFrom?: string): string {
  const bare = new URL(url.href);
  bare.username = '';
  bare.password = '';
  const from = redirectedFrom ? ` (redirected from ${clip(redirectedFrom)})` : '';
  return `${clip(bare.href)}${from}`;
}

function clip(text: string): string {
  return text.length > SHOWN_URL_CHARS ? `${text.slice(0, SHOWN_URL_CHARS)}…` : text;
}
