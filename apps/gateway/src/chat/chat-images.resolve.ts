// The async step after parsing: every `image_url` part of the messages becomes the image's bytes
// (proto Image{data, mime_type, detail}), read at the gateway so that the chat service never
// fetches anything. Parsing stays synchronous; a refused image is a 400 naming its part.
import type { ChatMessage } from '@tessera/contracts';
import type { ImageInput, ImageInputs } from '../images/image-inputs.service';
import { currentRequestScope } from '../upstream/request.scope';

export async function resolveImages(
  generate: { messages: ChatMessage[] },
  images: ImageInputs,
): Promise<void> {
  const parts = generate.messages.flatMap((message, i) =>
    (message.content ?? []).flatMap((part, j) =>
      part.image?.url ? [{ part, input: imageInput(part.image.url, i, j) }] : [],
    ),
  );
  if (parts.length === 0) return;
  const bytes = await images.readAll(
    parts.map(({ input }) => input),
    currentRequestScope()?.signal,
  );
  parts.forEach(({ part }, index) => {
    const { data, mimeType } = bytes[index]!;
    part.image = { data, mime_type: mimeType, url: '', detail: part.image?.detail ?? 'auto' };
  });
}

function imageInput(url: string, message: number, part: number): ImageInput {
  return { url, param: `messages[${message}].content[${part}].image_url` };
}
