/** Typed arrays use the host's byte order; the model's vector table and compiled form are little-endian. */
export const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
