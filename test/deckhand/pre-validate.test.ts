import { renderDocuments } from '../../src/deckhand';
import { messages, yamlSources } from './helpers';

const POLICY = `---
schema: deckhand/LayeringPolicy/v1
metadata:
  schema: metadata/Control/v1
  name: layering-policy
data:
  layerOrder: [global, site]
`;

const chart = (name: string, layer = 'global', extra = '') => `---
schema: armada/Chart/v1
metadata:
  schema: metadata/Document/v1
  name: ${name}
  storagePolicy: cleartext
  layeringDefinition:
    abstract: false
    layer: ${layer}
${extra}data:
  chart_name: ${name}
`;

describe('pre-validation, as Pegleg runs it', () => {
  test('duplicate (schema, layer, name): an error at each later copy, naming the first', () => {
    const r = renderDocuments(yamlSources(POLICY + chart('a') + chart('a', 'site') + chart('a')));
    expect(r.documents).toEqual([]);
    expect(messages(r)).toEqual([
      'error deckhand-duplicate site.yaml:31:1: Duplicate document exists: [armada/Chart/v1, global] a is also at site.yaml:9:1 (each document needs a unique (schema, metadata.layeringDefinition.layer, metadata.name))',
    ]);
  });

  test('the envelope: schema, metadata and data', () => {
    const r = renderDocuments(yamlSources(POLICY + '---\nschema: NotASchema\nmetadata:\n  name: x\n  schema: metadata/Document/v1\ndata: {}\n---\nschema: a/B/v1\nmetadata: {name: y}\n'));
    expect(messages(r)).toEqual([
      "error deckhand-format site.yaml:9:1: Deckhand pre-validation: schema: 'NotASchema' does not match '^[A-Za-z]+/[A-Za-z]+/v\\\\d+$'",
      "error deckhand-format site.yaml:15:1: Deckhand pre-validation: metadata: 'schema' is a required property",
    ]);
    expect(r.diagnostics.map((d) => d.field)).toEqual(['schema', 'metadata']);
  });

  test('metadata/Document/v1: storagePolicy, layeringDefinition, actions need a parentSelector, substitutions', () => {
    const bad = `---
schema: a/B/v1
metadata:
  schema: metadata/Document/v1
  name: bad
  storagePolicy: plain
  layeringDefinition:
    layer: global
    actions: [{method: merge, path: .}]
  substitutions:
    - src: {schema: a/C/v1, name: c}
      dest: {path: .x}
data: {}
`;
    const r = renderDocuments(yamlSources(POLICY + bad));
    expect(messages(r)).toEqual([
      "error deckhand-format site.yaml:9:1: Deckhand pre-validation: metadata.layeringDefinition: 'parentSelector' is a dependency of 'actions'",
      "error deckhand-format site.yaml:9:1: Deckhand pre-validation: metadata.substitutions[0].src: 'path' is a required property",
      "error deckhand-format site.yaml:9:1: Deckhand pre-validation: metadata.storagePolicy: 'plain' is not one of ['encrypted', 'cleartext']",
    ]);
  });

  test('an unknown metadata schema version', () => {
    const r = renderDocuments(yamlSources(POLICY + chart('a').replace('metadata/Document/v1', 'metadata/Document/v2')));
    expect(r.diagnostics.map((d) => d.message)).toEqual(['Deckhand pre-validation: metadata.schema: Invalid metadata schema metadata/Document version v2 specified.']);
  });

  test('control documents: the LayeringPolicy data', () => {
    const r = renderDocuments(yamlSources(POLICY.replace('layerOrder: [global, site]', 'layerOrder: global') + chart('a')));
    expect(messages(r)).toEqual(["error deckhand-format site.yaml:2:1: Deckhand pre-validation: data.layerOrder: 'global' is not of type 'array'"]);
  });

  test('two DataSchemas of one name (Pegleg)', () => {
    const schema = `---
schema: deckhand/DataSchema/v1
metadata:
  schema: metadata/Control/v1
  name: armada/Chart/v1
data: {}
`;
    const r = renderDocuments(yamlSources(POLICY + schema + schema.replace('data: {}', 'data: {type: object}')));
    expect(messages(r)).toEqual([
      'error deckhand-duplicate site.yaml:15:1: Duplicate document exists: [deckhand/DataSchema/v1, ] armada/Chart/v1 is also at site.yaml:9:1 (each document needs a unique (schema, metadata.layeringDefinition.layer, metadata.name))',
      'error deckhand-duplicate site.yaml:15:1: Duplicate schema specified for: armada/Chart/v1 (Pegleg refuses a second DataSchema of one name; the first is at site.yaml:9:1)',
    ]);
  });

  test('data values are never quoted in a message (they may be secrets)', () => {
    const r = renderDocuments(yamlSources(POLICY.replace('layerOrder: [global, site]', 'layerOrder: [global, site]\n  extra: hunter2') + chart('a')));
    expect(messages(r)).toEqual(["error deckhand-format site.yaml:2:1: Deckhand pre-validation: data: Additional properties are not allowed ('extra' was unexpected)"]);
    expect(JSON.stringify(r)).not.toContain('hunter2');
  });

  test('validate: false skips it', () => {
    const r = renderDocuments(yamlSources(POLICY + chart('a') + chart('a')), { validate: false });
    expect(r.documents.map((d) => (d.raw['metadata'] as any).name)).toEqual(['layering-policy', 'a']);
  });
});
