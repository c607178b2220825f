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
