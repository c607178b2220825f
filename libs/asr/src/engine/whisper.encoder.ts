// The encoder (encoder_model.onnx): log-mel windows of concurrent jobs in one worker are batched
// by @tessera/runtime's MicroBatcher (windows that arrive while a run is busy form the next
// batch), each window's output split back into its own [1, frames, dModel] tensor.
import { MicroBatcher } from '@tessera/runtime';
import { Tensor, type InferenceSession } from 'onnxruntime-node';

export class WhisperEncoder {
  private readonly batcher: MicroBatcher<Float32Array, Tensor>;

  constructor(
    private readonly session: InferenceSession,
    private readonly melBins: number,
    maxBatch: number,
  ) {
    this.batcher = new MicroBatcher<Float32Array, Tensor>({
      maxWaitMs: 0,
      maxBatchItems: maxBatch,
      maxBatchCost: maxBatch,
      cost: () => 1,
      run: (windows) => this.run(windows),
    });
  }

  /** `features`: one window's log-mel [melBins, frames], row-major. */
  async encode(features: Float32Array, signal?: AbortSignal): Promise<Tensor> {
    const [hidden] = await this.batcher.submit([features], { signal });
    return hidden;
  }

  private async run(windows: Float32Array[]): Promise<Tensor[]> {
    const size = windows[0].length;
    const input = new Float32Array(size * windows.length);
    windows.forEach((window, row) => input.set(window, row * size));
    const feeds = {
      input_features: new Tensor('float32', input, [
        windows.length,
        this.melBins,
        size / this.melBins,
      ]),
    };
    const out = await this.session.run(feeds);
    const hidden = out.last_hidden_state;
    const [, frames, dModel] = hidden.dims;
    const data = hidden.data as Float32Array;
    const rowSize = frames * dModel;
    return windows.map((_, row) =>
      windows.length === 1
        ? hidden
        : new Tensor('float32', data.slice(row * rowSize, (row + 1) * rowSize), [
            1,
            frames,
            dModel,
          ]),
    );
  }
}
