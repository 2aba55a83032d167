/**
 * Deckhand's built-in schemas that pre-validation applies (`deckhand/engine/schemas/` at the
 * commit Pegleg pins): the document envelope, the two metadata schemas, and the data of the
 * control documents. JSON Schema draft 4, as data.
 */

const SUBSTITUTION_DEST = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    pattern: { type: 'string' },
    recurse: { type: 'object', properties: { depth: { type: 'integer', minimum: -1 } }, required: ['depth'] },
  },
  additionalProperties: false,
  required: ['path'],
};

/** `deckhand/Base/v1`: every document. */
export const BASE_SCHEMA = {
  properties: {
    schema: { type: 'string', pattern: '^[A-Za-z]+/[A-Za-z]+/v\\d+$' },
    metadata: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        schema: { anyOf: [{ type: 'string', pattern: '^metadata/Document/v\\d+$' }, { type: 'string', pattern: '^metadata/Control/v\\d+$' }] },
      },
      additionalProperties: true,
      required: ['name', 'schema'],
    },
    data: { type: ['null', 'string', 'object', 'array', 'number', 'boolean'] },
  },
  additionalProperties: false,
  required: ['schema', 'metadata', 'data'],
};

/** `metadata/Document/v1`. */
export const METADATA_DOCUMENT_SCHEMA = {
  type: 'object',
  properties: {
    schema: { type: 'string', pattern: '^metadata/Document/v\\d+$' },
    name: { type: 'string' },
    labels: { type: 'object' },
    replacement: { type: 'boolean' },
    layeringDefinition: {
      type: 'object',
      properties: {
        layer: { type: 'string' },
        abstract: { type: 'boolean' },
        parentSelector: { type: 'object', minProperties: 1 },
        actions: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: { method: { enum: ['replace', 'delete', 'merge'] }, path: { type: 'string' } },
            additionalProperties: false,
            required: ['method', 'path'],
          },
        },
      },
      additionalProperties: false,
      required: ['layer'],
      allOf: [{ dependencies: { parentSelector: { required: ['actions'] } } }, { dependencies: { actions: { required: ['parentSelector'] } } }],
    },
    substitutions: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          dest: { anyOf: [SUBSTITUTION_DEST, { type: 'array', minItems: 1, items: SUBSTITUTION_DEST }] },
          src: {
            type: 'object',
            properties: {
              schema: { type: 'string', pattern: '^[A-Za-z]+/[A-Za-z]+/v\\d+$' },
              name: { type: 'string' },
              path: { type: 'string' },
              pattern: { type: 'string' },
              match_group: { type: 'integer' },
              deepcopy: { type: 'boolean' },
            },
            additionalProperties: false,
            required: ['schema', 'name', 'path'],
          },
        },
        additionalProperties: false,
        required: ['dest', 'src'],
      },
    },
    storagePolicy: { type: 'string', enum: ['encrypted', 'cleartext'] },
  },
  additionalProperties: false,
  required: ['schema', 'name', 'storagePolicy', 'layeringDefinition'],
};

/** `metadata/Control/v1`. */
export const METADATA_CONTROL_SCHEMA = {
  type: 'object',
  properties: {
    schema: { type: 'string', pattern: '^metadata/Control/v\\d+$' },
    name: { type: 'string' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
  },
  additionalProperties: true,
  required: ['schema', 'name'],
};

/** The metadata schemas, by `metadata.schema` without its version, for version `v1` (no `v2` is built in). */
export const METADATA_SCHEMAS: Readonly<Record<string, object>> = {
  'metadata/Document': METADATA_DOCUMENT_SCHEMA,
  'metadata/Control': METADATA_CONTROL_SCHEMA,
};

/** Data schemas of control documents, by `schema` without its version, for version `v1`. */
export const CONTROL_DATA_SCHEMAS: Readonly<Record<string, object>> = {
  'deckhand/LayeringPolicy': {
    type: 'object',
    properties: { layerOrder: { type: 'array', items: { type: 'string' } } },
    additionalProperties: false,
    required: ['layerOrder'],
  },
  'deckhand/ValidationPolicy': {
    type: 'object',
    properties: {
      validations: {
        type: 'array',
        items: {
          type: 'object',
          properties: { name: { type: 'string', pattern: '^.*-(validation|verification)$' }, expiresAfter: { type: 'string' } },
          additionalProperties: false,
          required: ['name'],
        },
      },
    },
    required: ['validations'],
    additionalProperties: false,
  },
};
