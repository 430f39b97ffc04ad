import { readFileSync } from 'node:fs';
import onnxProto from 'onnx-proto';
import { LITTLE_ENDIAN_HOST } from './onnx-graph.js';

const { onnx } = onnxProto;

/** The embedding table of a static (lookup-only) model: row i is the vector of token id i. */
export interface LookupTable {
  table: Float32Array;
  rows: number;
  dimensions: number;
}

/** The node types, in order, of the graph `lookupModelBytes` writes (onnx-graph.ts). */
const LOOKUP_OPS = ['Gather', 'Cast', 'Unsqueeze', 'Mul'];

/**
 * Reads the table out of an ONNX file when its graph is exactly a static-embedding lookup
 * (table[input_ids] × attention_mask, as written by `lookupModelBytes`); undefined for any other
 * graph, which then needs ONNX Runtime. Running a lookup needs no runtime: this is all it computes.
 */
export function readLookupTable(onnxPath: string): LookupTable | undefined {
  const bytes = readFileSync(onnxPath);
  // The table is moved within these bytes below: a small file's Buffer may share a pool with others.
  const owned = bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength;
  const model = onnx.ModelProto.decode(owned ? bytes : Uint8Array.from(bytes));
  const graph = model.graph;
  const nodes = graph?.node ?? [];
  if (nodes.map((n) => n.opType).join() !== LOOKUP_OPS.join()) return undefined;
  const gather = nodes[0];
  const tableName = gather?.input?.[0];
  const outputs = (graph?.output ?? []).map((o) => o.name).join();
  if (gather?.input?.[1] !== 'input_ids' || outputs !== 'last_hidden_state') return undefined;
  if ((gather.attribute ?? []).some((a) => a.name === 'axis' && Number(a.i) !== 0)) return undefined;
  const tensor = (graph?.initializer ?? []).find((t) => t.name === tableName);
  const dims = (tensor?.dims ?? []).map(Number);
  if (tensor?.dataType !== onnx.TensorProto.DataType.FLOAT || dims.length !== 2) return undefined;
  const [rows, dimensions] = dims as [number, number];
  const raw = tensor.rawData;
  if (raw === undefined || raw === null || raw.length !== rows * dimensions * 4) return undefined;
  return { table: littleEndianFloats(raw), rows, dimensions };
}

/**
 * The table as float32 without a second copy of it: ONNX raw_data is little-endian and may sit at
 * any byte offset of the file's buffer, so it is moved down (by at most 3 bytes, over the already
 * decoded header) to a 4-byte boundary and viewed there. Big-endian hosts get a converted copy.
 */
function littleEndianFloats(raw: Uint8Array): Float32Array {
  const count = raw.length / 4;
  if (!LITTLE_ENDIAN_HOST) {
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    return Float32Array.from({ length: count }, (_, i) => view.getFloat32(i * 4, true));
  }
  const aligned = raw.byteOffset - (raw.byteOffset % 4);
  new Uint8Array(raw.buffer).copyWithin(aligned, raw.byteOffset, raw.byteOffset + raw.length);
  return new Float32Array(raw.buffer, aligned, count);
}
