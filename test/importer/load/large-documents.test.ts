/**
 * Documents over 1 MiB are read, located and checked as smaller ones are: the same positions, and
 * the same checks of what PyYAML refuses (a key that is a mapping: issue 39).
 */
import { parseInputs } from '../../../src/importer/load';

test('a document over 1 MB with a repeated key is located as the same document under 1 MB is', () => {
  const doc = (padding: number) =>
    [
      'schema: armada/Chart/v1',
      'metadata:',
      '  schema: metadata/Document/v1',
      '  name: big',
      'data:',
      '  values:',
      '    old:',
      '      deep: 1',
      '  values:',
      '    new: 1',
      ...Array.from({ length: padding }, (_, i) => `    pad${i}: ${'x'.repeat(40)}`),
      '',
    ].join('\n');
  const locate = (text: string) => {
    const r = parseInputs([{ file: 'site.yaml', text }]);
    expect(r.diagnostics.map((d) => `${d.location} ${d.code}`)).toEqual(['site.yaml:9:3 duplicate-key']);
    return [['data', 'values', 'old', 'deep'], ['data', 'values', 'new'], ['data', 'values', 'pad5']].map((p) => r.documents[0].locate(p));
  };
  const large = doc(30_000);
  expect(large.length).toBeGreaterThan(1024 * 1024);
  const expected = [{ line: 9, column: 3 }, { line: 10, column: 5 }, { line: 16, column: 5 }];
  expect(locate(doc(10))).toEqual(expected);
  expect(locate(large)).toEqual(expected);
});

test('an unrendered template key is refused in a document of any size', () => {
  const doc = (padding: number) =>
    [
      'schema: armada/Chart/v1',
      'metadata:',
      '  schema: metadata/Document/v1',
      '  name: big',
      'data:',
      '  values:',
      ...Array.from({ length: padding }, (_, i) => `    pad${i}: ${'x'.repeat(40)}`),
      '    {{ .Values.image }}: nginx',
      '',
    ].join('\n');
  for (const padding of [10, 30_000]) {
    const text = doc(padding);
    const r = parseInputs([{ file: 'site.yaml', text }]);
    expect([text.length > 1024 * 1024, r.diagnostics.map((d) => `${d.location} ${d.severity} ${d.message}`)]).toEqual([
      padding > 10,
      [`site.yaml:${7 + padding}:5 error found unhashable key: a mapping or a sequence cannot be a key`],
    ]);
  }
});
