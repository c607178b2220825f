// Image inputs (`image_url` parts of chat messages; moderation inputs later) read into bytes at
// the gateway: a base64 data: URL decoded, an http(s) URL fetched by the guarded fetcher. The
// work one request causes is bounded: at most `maxPerRequest` images, at most
// FETCH_CONCURRENCY fetched at once, each one within the size cap and the timeouts, and all of
// them within what one gRPC message to a service can carry.
import type { OnApplicationShutdown } from '@nestjs/common';
import type { ImageInputConfig } from '@tessera/config';
import { OpenAIError } from '../errors/openai-error';
import { AddressPolicy } from './address.policy';
import { isDataUrl, parseDataUrl } from './data-url.parser';
import type { ImageBytes } from './image-bytes';
import { byteLimitText, ImageInputError } from './image-input.error';
import { ImageUrlFetcher } from './image-url.fetcher';

/** Fetches in flight for one request. */
export const FETCH_CONCURRENCY = 4;
/**
 * All the images of one request together: they travel to the chat service in one gRPC message
 * (64 MiB at most, libs/contracts/src/grpc.options.ts), with the text beside them.
 */
export const MAX_IMAGE_BYTES_PER_REQUEST = 48 * 1024 * 1024;

export interface ImageInput {
  url: string;
  /** The field the 400 names, e.g. `messages[0].content[1].image_url`. */
  param: string;
}

export class ImageInputs implements OnApplicationShutdown {
  private readonly fetcher: ImageUrlFetcher;

  constructor(private readonly config: ImageInputConfig) {
    this.fetcher = new ImageUrlFetcher(
      {
        connectTimeoutMs: this.config.fetchConnectTimeoutMs,
        timeoutMs: this.config.fetchTimeoutMs,
        maxRedirects: this.config.fetchMaxRedirects,
        maxBytes: this.config.maxBytes,
      },
      new AddressPolicy(this.config.fetchAllow),
    );
  }

  /** The bytes of every input, in order; the first failure is the 400 (the rest are aborted). */
  async readAll(inputs: readonly ImageInput[], signal?: AbortSignal): Promise<ImageBytes[]> {
    const excess = inputs[this.config.maxPerRequest];
    if (excess) {
      throw OpenAIError.badRequest(
        `Invalid '${excess.param}': a request may carry at most ${this.config.maxPerRequest} ` +
          `images; this one has ${inputs.length}.`,
        excess.param,
        'too_many_images',
      );
    }
    const stop = new AbortController();
    const aborted = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    const results: ImageBytes[] = new Array(inputs.length);
    let next = 0;
    let total = 0;
    let failure: unknown;
    const worker = async () => {
      while (failure === undefined && next < inputs.length) {
        const index = next++;
        const input = inputs[index]!;
        try {
          results[index] = await this.read(input.url, aborted);
          total += results[index].data.length;
          if (total > MAX_IMAGE_BYTES_PER_REQUEST) {
            throw new ImageInputError(
              `the request's images together are larger than ` +
                byteLimitText(MAX_IMAGE_BYTES_PER_REQUEST),
              'invalid_image',
            );
          }
        } catch (error) {
          if (failure !== undefined || signal?.aborted) return;
          failure = refusal(error, input.param);
          stop.abort();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(FETCH_CONCURRENCY, inputs.length) }, worker));
    if (failure !== undefined) throw failure;
    signal?.throwIfAborted();
    return results;
  }

  /** One input's bytes; an ImageInputError says why it cannot be used. */
  read(url: string, signal?: AbortSignal): Promise<ImageBytes> {
    if (isDataUrl(url))
      return Promise.resolve().then(() => parseDataUrl(url, this.config.maxBytes));
    return this.fetcher.fetch(url, signal);
  }

  /** After the HTTP server has closed: requests draining until then may still fetch. */
  onApplicationShutdown(): Promise<void> {
    return this.fetcher.close();
  }
}

/** The 400 for an input that cannot be used; anything else is not the client's fault. */
function refusal(error: unknown, param: string): unknown {
  if (!(error instanceof ImageInputError)) return error;
  return OpenAIError.badRequest(`Invalid '${param}': ${error.message}.`, param, error.code);
}
