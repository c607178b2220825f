// What can go wrong with an ffmpeg (or ffprobe) child process, told apart by class so that a
// service maps them to statuses without reading messages.

/** No usable binary: the configured path is wrong, or none of the candidates runs. */
export class FfmpegNotFoundError extends Error {
  override readonly name = 'FfmpegNotFoundError';
}

/** The child could not be started, or exited with a failure before its output was complete. */
export class FfmpegProcessError extends Error {
  override readonly name = 'FfmpegProcessError';

  constructor(
    message: string,
    /** The exit code, or null when it was killed by a signal or never started. */
    readonly exitCode: number | null,
    readonly signal: NodeJS.Signals | null,
    /** The end of what it wrote to stderr (its own explanation), possibly empty. */
    readonly stderr: string,
  ) {
    super(message);
  }
}

/** The encoder was aborted (e.g. the client went away) before its output was complete. */
export class AudioEncoderAbortedError extends Error {
  override readonly name = 'AudioEncoderAbortedError';
}

/** Why an input could not be turned into samples; every one is the client's input, not a fault. */
export type AudioDecodeFailure = 'undecodable' | 'too-long' | 'timeout';

/**
 * The upload is not audio the decoder can read (its message lists the supported formats), is
 * longer than allowed, or took too long to decode. A service answers it as a bad argument.
 */
export class AudioDecodeError extends Error {
  override readonly name = 'AudioDecodeError';

  constructor(
    message: string,
    readonly reason: AudioDecodeFailure,
    /** ffmpeg's own explanation (the end of its stderr), for the logs; not for the client. */
    readonly detail = '',
  ) {
    super(message);
  }
}
