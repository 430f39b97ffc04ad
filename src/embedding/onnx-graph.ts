import onnxProto from 'onnx-proto';
import { LITTLE_ENDIAN_HOST } from './byte-order.js';

const { onnx } = onnxProto;

/**
 * ONNX opset 13 is the first where Unsqueeze takes its axes as an input; every ONNX Runtime
 * that Transformers.js 4 ships supports it. IR version 7 is the one that goes with opset 13.
 */
const OPSET = 13;
const IR_VERSION = 7;

interface LookupGraph {
  /** Row-major [rows, dimensions] table; row i is the vector of token id i. */
  table: Float32Array;
  rows: number;
  dimensions: number;
  /** Goes into the model's producer_version, so a file says which builder wrote it. */
  producerVersion: string;
  docString: string;
}

/**
 * A static-embedding encoder: last_hidden_state[b, s] = table[input_ids[b, s]] × attention_mask[b, s].
 * It has the inputs and output of a BERT encoder, so Transformers.js's feature-extraction
 * pipeline runs it like any other model (and its mean pooling gives the mean of the token rows).
 * Masking in the graph keeps padded positions at zero for callers that do not pool.
 * The encoding is deterministic: the same table gives the same bytes.
 */
export function lookupModelBytes(graph: LookupGraph): Uint8Array {
  const { table, rows, dimensions } = graph;
  if (table.length !== rows * dimensions) {
    throw new Error(`lookup table has ${table.length} values, expected ${rows} rows × ${dimensions} dimensions`);
  }
  const tokenShape = [{ dimParam: 'batch_size' }, { dimParam: 'sequence_length' }];
  const int64Input = (name: string) => ({
    name,
    type: { tensorType: { elemType: onnx.TensorProto.DataType.INT64, shape: { dim: tokenShape } } },
  });
  const model = onnx.ModelProto.create({
    irVersion: IR_VERSION,
    opsetImport: [{ domain: '', version: OPSET }],
    producerName: 'svc-docs',
    producerVersion: graph.producerVersion,
    docString: graph.docString,
    graph: {
      name: 'static_embedding',
      input: [int64Input('input_ids'), int64Input('attention_mask')],
      output: [
        {
          name: 'last_hidden_state',
          type: {
            tensorType: {
              elemType: onnx.TensorProto.DataType.FLOAT,
              shape: { dim: [...tokenShape, { dimValue: dimensions }] },
            },
          },
        },
      ],
      initializer: [
        {
          name: 'embeddings',
          dataType: onnx.TensorProto.DataType.FLOAT,
          dims: [rows, dimensions],
          rawData: littleEndianBytes(table),
        },
        {
          name: 'mask_axes',
          dataType: onnx.TensorProto.DataType.INT64,
          dims: [1],
          rawData: littleEndianBytes(new BigInt64Array([-1n])),
        },
      ],
      node: lookupNodes(),
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/** table[input_ids] × attention_mask, broadcast over the vector dimension. */
function lookupNodes() {
  return [
    {
      name: 'lookup',
      opType: 'Gather',
      input: ['embeddings', 'input_ids'],
      output: ['token_vectors'],
      attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
    },
    {
      name: 'mask_to_float',
      opType: 'Cast',
      input: ['attention_mask'],
      output: ['mask_float'],
      attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: onnx.TensorProto.DataType.FLOAT }],
    },
    { name: 'mask_expand', opType: 'Unsqueeze', input: ['mask_float', 'mask_axes'], output: ['mask_3d'] },
    { name: 'apply_mask', opType: 'Mul', input: ['token_vectors', 'mask_3d'], output: ['last_hidden_state'] },
  ];
}

/** ONNX raw_data is little-endian; typed arrays use the host's order, so swap on big-endian hosts. */
function littleEndianBytes(values: Float32Array | BigInt64Array): Uint8Array {
  const bytes = new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
  if (LITTLE_ENDIAN_HOST) return bytes;
  const width = values.BYTES_PER_ELEMENT;
  for (let i = 0; i < bytes.length; i += width) bytes.subarray(i, i + width).reverse();
  return bytes;
}
