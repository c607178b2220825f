// Loads, warms and looks up the moderation models the models file lists for this service. A
// public model is one or more classifiers (the entry's own source, then `options.classifiers`),
// each with its own worker pool and micro-batcher, and the category map that merges them.
import { Injectable } from '@nestjs/common';
import type { ModerationCategory } from '@tessera/contracts';
import {
  ClassifierModel,
  batchItemsHistogram,
  encoderBatcher,
  estimatedTokens,
  resolveCategoryMap,
  uncoveredCategories,
  ModerationModelOptionsSchema,
  type ClassifierOutcome,
  type CategoryRule,
  type ModerationModelOptions,
} from '@tessera/encoder';
import { onnxFileFor, type ModelSpec } from '@tessera/models';
import type { MicroBatcher, WorkBounds } from '@tessera/runtime';
import { ServedModels, type ModelToOpen } from '@tessera/service';

/** One classifier behind a public model: its runtime, its batcher and its category rules. */
export interface ServedClassifier {
  /** The classifier's source as the models file writes it, for logs and errors. */
  readonly source: string;
  readonly model: ClassifierModel;
  readonly batcher: MicroBatcher<string, ClassifierOutcome>;
  readonly rules: readonly CategoryRule[];
}

export interface ModerationModel {
  readonly spec: ModelSpec;
  /** Unix seconds, stable across restarts (see `modelCreatedAt`), not the load time. */
  readonly created: number;
  readonly classifiers: readonly ServedClassifier[];
  /** Categories no classifier maps: scored 0, never flagged; listed by ListModels. */
  readonly uncoveredCategories: readonly ModerationCategory[];
  /** Most inputs one request may classify. */
  readonly maxInputs: number;
}

@Injectable()
export class ModerationModels extends ServedModels<
  ModerationModel,
  typeof ModerationModelOptionsSchema
> {
  protected readonly capability = 'moderation';
  protected readonly optionsSchema = ModerationModelOptionsSchema;
  private readonly batchItems = batchItemsHistogram(
    this.metrics,
    'moderation',
    'Texts per model run (micro-batch) of a moderation classifier',
  );

  /**
   * Scores one request's texts with every classifier of the model (each text may share a
   * batch with other requests'); per classifier, one outcome per text, in order.
   */
  classify(
    model: ModerationModel,
    texts: readonly string[],
    bounds: WorkBounds = {},
  ): Promise<ClassifierOutcome[][]> {
    return Promise.all(
      model.classifiers.map((classifier) => classifier.batcher.submit([...texts], bounds)),
    );
  }

  protected async open(entry: ModelToOpen<ModerationModelOptions>): Promise<ModerationModel> {
    const { spec, options, modelDir, created } = entry;
    const own = {
      source: spec.source.raw,
      modelDir,
      onnxFile: onnxFileFor(spec),
      activation: options.activation,
      categories: options.categories,
    };
    const companions = await this.resolveCompanions(spec);
    const extras = options.classifiers.map((extra, i) => ({
      ...extra,
      modelDir: companions[i].modelDir,
      onnxFile: onnxFileFor(companions[i].spec),
    }));
    const classifiers: ServedClassifier[] = [];
    for (const classifier of [own, ...extras]) {
      classifiers.push(await this.openClassifier(spec, options, classifier));
    }
    const uncovered = uncoveredCategories(classifiers.map((c) => c.rules));
    if (uncovered.length === 13) {
      throw new Error(`moderation model '${spec.id}' maps no category (options.categories)`);
    }
    this.logger.log(
      `loaded ${spec.id} (${classifiers.length} classifier(s)); uncovered categories: ` +
        (uncovered.join(', ') || 'none'),
    );
    return {
      spec,
      created,
      classifiers,
      uncoveredCategories: uncovered,
      maxInputs: options.max_inputs,
    };
  }

  private async openClassifier(
    spec: ModelSpec,
    options: ModerationModelOptions,
    classifier: {
      source: string;
      modelDir: string;
      onnxFile: string;
      activation?: 'sigmoid' | 'softmax';
      categories: ModerationModelOptions['categories'];
    },
  ): Promise<ServedClassifier> {
    const model = this.closesWithService(
      await ClassifierModel.load({
        modelDir: classifier.modelDir,
        onnxFile: classifier.onnxFile,
        runtime: options,
        windowOverlap: options.window_overlap_tokens,
        maxWindows: options.max_windows_per_input,
        activation: classifier.activation,
        onWarning: (message) => this.logger.warn(message),
      }),
    );
    const rules = resolveCategoryMap(
      classifier.categories,
      model.labels,
      `moderation model '${spec.id}', classifier ${classifier.source}`,
    );
    await model.warmup();
    const batcher = this.closesWithService(
      encoderBatcher<string, ClassifierOutcome>(options, {
        workers: model.workers,
        cost: estimatedTokens,
        run: (texts) => model.classify(texts),
        observe: (texts) => this.batchItems.observe({ model: spec.id }, texts),
      }),
    );
    this.logger.log(
      `${spec.id}: classifier ${classifier.source} (labels ${model.labels.join(', ')}; ` +
        `${model.activation}; windows of ${model.windowing.maxTokens} tokens) from ` +
        classifier.modelDir,
    );
    return { source: classifier.source, model, batcher, rules };
  }
}
