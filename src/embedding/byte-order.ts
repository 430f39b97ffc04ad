/** Typed arrays use the host's byte order; ONNX raw_data and the compiled model files are little-endian. */
export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
