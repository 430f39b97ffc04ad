import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import type onnxProto from 'onnx-proto';
import { LITTLE_ENDIAN_HOST } from './byte-order.js';

/**
 * The ONNX protobuf classes, loaded on first use: a model with a current compiled form
 * (lookup-cache.ts) is read without them, and start-up is spared the package.
 */
function onnxClasses(): typeof onnxProto.onnx {
  return (createRequire(import.meta.url)('onnx-proto') as typeof onnxProto).onnx;
}

/** The embedding table of a static (lookup-only) model: row i is the vector of token id i. */
interface LookupTable extends TableLocation {
  table: Float32Array;
}

/** Where the table's float32 values (little-endian, row-major) sit in the ONNX file. */
export interface TableLocation {
  /** Byte offset of the first value in the file. */
  offset: number;
  rows: number;
  dimensions: number;
}

/** The rows a text's pooling adds up: held in memory, or read from the file when asked for. */
export interface TableRows {
  readonly rows: number;
  readonly dimensions: number;
  /** Adds row `id` (float32 values, widened) into `sums`, value by value. */
  addRow(id: number, sums: Float64Array): void;
  close(): void;
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
  const onnx = onnxClasses();
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
  // raw_data is a view into the decoded buffer, which holds the whole file from its first byte.
  const offset = raw.byteOffset;
  return { offset, table: littleEndianFloats(raw), rows, dimensions };
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

export function memoryRows(table: Float32Array, rows: number, dimensions: number): TableRows {
  return {
    rows,
    dimensions,
    addRow(id, sums) {
      const row = id * dimensions;
      for (let k = 0; k < dimensions; k++) sums[k]! += table[row + k]!;
    },
    close() {},
  };
}

/** The table read whole from its place in the file (no protobuf decoding): little-endian hosts only. */
export function readTableAt(onnxPath: string, at: TableLocation): Float32Array {
  const table = new Float32Array(at.rows * at.dimensions);
  const fd = openSync(onnxPath, 'r');
  try {
    readFully(fd, new Uint8Array(table.buffer), at.offset);
  } finally {
    closeSync(fd);
  }
  return table;
}

/**
 * Rows read from the file as a text needs them, one read of a few hundred bytes per token: the
 * server embeds only queries, and this keeps the 60 MB table in the page cache, shared and
 * evictable, instead of in its own memory. Little-endian hosts only (the file's byte order).
 */
export function fileRows(onnxPath: string, at: TableLocation): TableRows {
  const { rows, dimensions, offset } = at;
  const fd = openSync(onnxPath, 'r');
  const rowBytes = dimensions * 4;
  if (fstatSync(fd).size < offset + rows * rowBytes) {
    closeSync(fd);
    throw new Error(`${onnxPath} is shorter than its ${rows} × ${dimensions} table`);
  }
  const row = new Float32Array(dimensions);
  const bytes = new Uint8Array(row.buffer);
  let open = true;
  return {
    rows,
    dimensions,
    addRow(id, sums) {
      readFully(fd, bytes, offset + id * rowBytes);
      for (let k = 0; k < dimensions; k++) sums[k]! += row[k]!;
    },
    close() {
      // Once only: the number may belong to another file by a second close.
      if (open) closeSync(fd);
      open = false;
    },
  };
}

function readFully(fd: number, into: Uint8Array, position: number): void {
  let done = 0;
  while (done < into.length) {
    const n = readSync(fd, into, done, into.length - done, position + done);
    if (n === 0) throw new Error('the model file ended inside its embedding table');
    done += n;
  }
}
