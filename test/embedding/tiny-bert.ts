import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/**
 * A tiny model folder laid out as the Hub's sentence models are (Xenova/all-MiniLM-L6-v2,
 * bge-small): `config.json` with `model_type: bert`, a WordPiece `tokenizer.json` with `##`
 * pieces, `tokenizer_config.json`, and `onnx/model.onnx` taking `input_ids`, `attention_mask` and
 * `token_type_ids`. Its network is small but real: word and token-type embeddings added, a dense
 * layer with tanh, masked. It proves the loader takes such a folder by configuration alone; it
 * knows no language, so tests must not expect good vectors from it.
 */

export const TINY_BERT_DIMENSIONS = 6;

const WORDS = [
  'refund',
  'gift',
  'card',
  'token',
  'webhook',
  'cluster',
  'pod',
  'sync',
  'event',
  'verify',
  'the',
  'a',
  'of',
];
const PIECES = ['##s', '##ing', '##ed'];
const SPECIALS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
export const TINY_BERT_VOCAB = [...SPECIALS, ...WORDS, ...PIECES];

/** Deterministic values in [-0.5, 0.5). */
function values(count: number, seed: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31 - 0.5;
  });
}

function floatInit(name: string, dims: number[], data: Float32Array) {
  return { name, dataType: onnx.TensorProto.DataType.FLOAT, dims, rawData: new Uint8Array(data.buffer) };
}

function modelBytes(): Uint8Array {
  const d = TINY_BERT_DIMENSIONS;
  const tokenShape = [{ dimParam: 'batch_size' }, { dimParam: 'sequence_length' }];
  const int64Input = (name: string) => ({
    name,
    type: { tensorType: { elemType: onnx.TensorProto.DataType.INT64, shape: { dim: tokenShape } } },
  });
  const model = onnx.ModelProto.create({
    irVersion: 7,
    opsetImport: [{ domain: '', version: 13 }],
    producerName: 'svc-docs-test',
    graph: {
      name: 'tiny_bert',
      input: [int64Input('input_ids'), int64Input('attention_mask'), int64Input('token_type_ids')],
      output: [
        {
          name: 'last_hidden_state',
          type: {
            tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: [...tokenShape, { dimValue: d }] } },
          },
        },
      ],
      initializer: [
        floatInit('word_embeddings', [TINY_BERT_VOCAB.length, d], values(TINY_BERT_VOCAB.length * d, 7)),
        floatInit('type_embeddings', [2, d], values(2 * d, 11)),
        floatInit('dense', [d, d], values(d * d, 13)),
        {
          name: 'mask_axes',
          dataType: onnx.TensorProto.DataType.INT64,
          dims: [1],
          rawData: new Uint8Array(new BigInt64Array([-1n]).buffer),
        },
      ],
      node: [
        {
          opType: 'Gather',
          input: ['word_embeddings', 'input_ids'],
          output: ['words'],
          attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
        },
        {
          opType: 'Gather',
          input: ['type_embeddings', 'token_type_ids'],
          output: ['types'],
          attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
        },
        { opType: 'Add', input: ['words', 'types'], output: ['embedded'] },
        { opType: 'MatMul', input: ['embedded', 'dense'], output: ['projected'] },
        { opType: 'Tanh', input: ['projected'], output: ['hidden'] },
        {
          opType: 'Cast',
          input: ['attention_mask'],
          output: ['mask_float'],
          attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: onnx.TensorProto.DataType.FLOAT }],
        },
        { opType: 'Unsqueeze', input: ['mask_float', 'mask_axes'], output: ['mask_3d'] },
        { opType: 'Mul', input: ['hidden', 'mask_3d'], output: ['last_hidden_state'] },
      ],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/** The standard BERT WordPiece tokenizer.json, as the Hub's BERT-family models ship it. */
function tokenizerJson(): string {
  const id = (token: string) => TINY_BERT_VOCAB.indexOf(token);
  return JSON.stringify({
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIALS.map((content) => ({
      id: id(content),
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [id('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [id('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(TINY_BERT_VOCAB.map((t, i) => [t, i])),
    },
  });
}

/** Writes the folder and returns it. */
export function buildTinyBert(dir: string): string {
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(
    join(dir, 'config.json'),
    JSON.stringify({
      model_type: 'bert',
      architectures: ['BertModel'],
      hidden_size: TINY_BERT_DIMENSIONS,
      vocab_size: TINY_BERT_VOCAB.length,
      max_position_embeddings: 512,
      type_vocab_size: 2,
    }),
  );
  writeFileSync(
    join(dir, 'tokenizer_config.json'),
    JSON.stringify({
      tokenizer_class: 'BertTokenizer',
      do_lower_case: true,
      model_max_length: 512,
      pad_token: '[PAD]',
      unk_token: '[UNK]',
      cls_token: '[CLS]',
      sep_token: '[SEP]',
      mask_token: '[MASK]',
    }),
  );
  writeFileSync(join(dir, 'tokenizer.json'), tokenizerJson());
  writeFileSync(join(dir, 'onnx', 'model.onnx'), modelBytes());
  return dir;
}
