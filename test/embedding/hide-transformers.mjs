import { registerHooks } from 'node:module';

/**
 * Preloaded (`node --import`) by a test: @huggingface/transformers resolves as it does where the
 * optional dependency is not installed (the Docker image's default target).
 */
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === '@huggingface/transformers') {
      const error = new Error(`Cannot find package '${specifier}' imported from ${context.parentURL}`);
      error.code = 'ERR_MODULE_NOT_FOUND';
      throw error;
    }
    return nextResolve(specifier, context);
  },
});
