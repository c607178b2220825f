// Reads a multipart/form-data upload as it arrives (@fastify/multipart over busboy, one part at
// a time): the small text fields, and the one `file` part into an AudioUploadBuffer.
//
// The bound: the gRPC call's first message is its config, which needs every field, and a form
// may give fields after the file (the openai Node SDK and curl send them in the order written,
// `{file, model}` puts the file first). So the file is held once, in memory, until the form
// ends; at most MAX_AUDIO_FILE_BYTES (25 MB) plus the fields, per request. Fields that come
// before the file are checked (and the model routed) before any audio is read, and a file
// crossing the size limit is refused at the byte that crosses it, without reading the rest.
import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { OpenAIError } from '../errors/openai-error';
import { AudioUploadBuffer } from './audio-upload.buffer';
import { AUDIO_FORM_LIMITS, MAX_AUDIO_FILE_BYTES, audioFileTooLarge } from './transcription.bounds';
import type { FormFields } from './transcription.request';

export interface AudioFormFile {
  /** As the client named it (its extension hints at the format). */
  filename: string;
  contentType: string;
  audio: AudioUploadBuffer;
}

export interface AudioForm {
  fields: FormFields;
  file: AudioFormFile | undefined;
}

const FILE_FIELD = 'file';

/**
 * The whole form. `beforeFile` is told the fields seen when the file part starts and may throw
 * to refuse the request before the audio is read.
 */
export async function readAudioForm(
  request: FastifyRequest,
  beforeFile: (fields: FormFields) => void,
): Promise<AudioForm> {
  const fields = new Map<string, string[]>();
  let file: AudioFormFile | undefined;
  try {
    const parts = request.parts({
      limits: { ...AUDIO_FORM_LIMITS, fileSize: MAX_AUDIO_FILE_BYTES, files: 1 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        addField(fields, part);
        continue;
      }
      if (part.fieldname !== FILE_FIELD) {
        throw OpenAIError.badRequest(
          `Unexpected file in '${part.fieldname}': the audio is uploaded as 'file'.`,
          part.fieldname,
        );
      }
      beforeFile(fields);
      file = {
        filename: part.filename,
        contentType: part.mimetype,
        audio: await readFile(part),
      };
    }
  } catch (error) {
    throw formError(error);
  }
  return { fields, file };
}

async function readFile(part: MultipartFile): Promise<AudioUploadBuffer> {
  const audio = new AudioUploadBuffer();
  // The plugin reports a file over the limit only once the rest of the body has been read
  // (busboy skips it); ending the file stream here stops reading at once.
  part.file.once('limit', () => part.file.destroy(audioFileTooLarge()));
  for await (const chunk of part.file) audio.append(chunk as Buffer);
  return audio;
}

function addField(fields: Map<string, string[]>, part: MultipartValue): void {
  const name = part.fieldname;
  if (part.fieldnameTruncated) {
    throw OpenAIError.badRequest('A form field has a name that is too long.', null);
  }
  if (part.valueTruncated) {
    throw OpenAIError.badRequest(
      `Invalid '${name}': the value is longer than ${AUDIO_FORM_LIMITS.fieldSize} bytes.`,
      name,
    );
  }
  // A part sent as application/json arrives parsed; the schema reads the text it was.
  const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
  const values = fields.get(name);
  if (values) values.push(value);
  else fields.set(name, [value]);
}

const BUSBOY_FAILURE = /multipart|boundary|part header|terminated early|content type/i;

/** The multipart plugin's and busboy's failures as the OpenAI 400/413 they are. */
function formError(error: unknown): unknown {
  if (error instanceof OpenAIError) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_FILES_LIMIT':
      return OpenAIError.badRequest("Only one file can be uploaded, as 'file'.", 'file');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return OpenAIError.badRequest(
        `The form has too many fields; at most ${AUDIO_FORM_LIMITS.fields} are accepted.`,
      );
    case 'FST_REQ_FILE_TOO_LARGE':
      return audioFileTooLarge();
    case 'FST_PROTO_VIOLATION':
      return OpenAIError.badRequest(
        "A form field is named after an object property ('__proto__', 'constructor', …).",
      );
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return OpenAIError.badRequest('A form field sent as application/json is not valid JSON.');
    case 'FST_MP_PREMATURE_CLOSE':
      // The client went away: nobody to answer (the exception filter knows).
      return error;
  }
  // busboy's own: a body that is not the multipart it says it is (no boundary, a part cut
  // short, malformed part headers).
  if (error instanceof Error && code === undefined && BUSBOY_FAILURE.test(error.message)) {
    return OpenAIError.badRequest(
      `The multipart/form-data body could not be read: ${error.message}.`,
      null,
      'invalid_multipart_body',
    );
  }
  return error;
}
