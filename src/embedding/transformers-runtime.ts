/**
 * Transformers.js (with ONNX Runtime, about 80 MB installed) runs every model but the bundled
 * static one, which is embedded without it. It is an optional dependency: npm installs it, and
 * the Docker image's default target leaves it out (its `models` target keeps it).
 */

export class ModelRuntimeMissingError extends Error {
  override readonly name = 'ModelRuntimeMissingError';
  readonly code = 'MODEL_RUNTIME_MISSING';
}

/** Transformers.js, or a ModelRuntimeMissingError saying how to get it when it is not installed. */
export async function importTransformers(modelId: string): Promise<typeof import('@huggingface/transformers')> {
  try {
    return await import('@huggingface/transformers');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND') throw error;
    throw new ModelRuntimeMissingError(
      `the model "${modelId}" runs in Transformers.js (@huggingface/transformers), an optional dependency this installation leaves out: install it (npm install @huggingface/transformers), or in Docker use the image built with --target models`,
    );
  }
}
