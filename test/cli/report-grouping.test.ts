/**
 * Repeated errors are grouped as repeated warnings are: one mistake repeated a hundred thousand
 * times is one line, every different error keeps its own, and the summary counts each one.
 */
import { printReport, reportLines } from '../../src/cli/report';
import { Diagnostic } from '../../src/model/diagnostics';

const empty = (n: number, file = 'a.yaml'): Diagnostic => ({
  severity: 'error',
  location: `${file}:${n}:1`,
  code: 'empty-document',
  message: `document ${n} is empty (an extra '---', or only comments); Armada fails on it ("None is not a valid override statement"): remove it`,
});
const EMPTY_TEXT = `error: document 1 is empty (an extra '---', or only comments); Armada fails on it ("None is not a valid override statement"): remove it`;

describe('repeated errors', () => {
  test('more than 3 alike are one line: the first in full, the count, the next few places', () => {
    expect(reportLines([1, 2, 3, 4, 5, 6].map((n) => empty(n)))).toEqual([`a.yaml:1:1: ${EMPTY_TEXT} [empty-document: 6 errors like this one, also in a.yaml:2:1, a.yaml:3:1, a.yaml:4:1 and 2 more]`]);
  });

  test('3 alike are printed each', () => {
    expect(reportLines([1, 2, 3].map((n) => empty(n)))).toHaveLength(3);
  });

  test('alike means the same code, field and message but for its numbers: every other error keeps its line', () => {
    const schema = (doc: string, n: number, message: string): Diagnostic => ({ severity: 'error', location: `a.yaml:${n}:3`, document: doc, field: 'data.wait.timeout', code: 'ARM100', message });
    const ds = [
      ...[1, 2, 3, 4].map((n) => schema(`armada/Chart/v1 c${n}`, n * 10, `'${n}00' is not of type 'integer'`)),
      schema('armada/Chart/v1 c5', 50, "'x' is not of type 'integer'"),
      { ...schema('armada/Chart/v1 c6', 60, "'600' is not of type 'integer'"), field: 'data.release' },
    ];
    expect(reportLines(ds)).toEqual([
      "a.yaml:10:3: error: armada/Chart/v1 c1: data.wait.timeout: '100' is not of type 'integer' [ARM100: 4 errors like this one, also in armada/Chart/v1 c2, armada/Chart/v1 c3, armada/Chart/v1 c4]",
      "a.yaml:50:3: error: armada/Chart/v1 c5: data.wait.timeout: 'x' is not of type 'integer'",
      "a.yaml:60:3: error: armada/Chart/v1 c6: data.release: '600' is not of type 'integer'",
    ]);
  });

  test('errors and warnings of one code are grouped apart', () => {
    const warning = (n: number): Diagnostic => ({ ...empty(n), severity: 'warning' });
    const lines = reportLines([1, 2, 3, 4].flatMap((n) => [empty(n), warning(n + 100)]));
    expect(lines.map((l) => /\[empty-document: 4 (errors|warnings)/.exec(l)?.[1])).toEqual(['errors', 'warnings']);
  });

  test('--all prints every one; --all-warnings every warning, errors still grouped; --quiet keeps the grouped errors', () => {
    const ds = [...[1, 2, 3, 4].map((n) => empty(n)), ...[5, 6, 7, 8].map((n): Diagnostic => ({ ...empty(n), severity: 'warning' }))];
    expect(reportLines(ds, { all: true })).toHaveLength(8);
    expect(reportLines(ds, { allWarnings: true })).toHaveLength(5);
    expect(reportLines(ds, { quiet: true })).toEqual([`a.yaml:1:1: ${EMPTY_TEXT} [empty-document: 4 errors like this one, also in a.yaml:2:1, a.yaml:3:1, a.yaml:4:1]`]);
  });

  test('the summary counts every error, grouped or not', async () => {
    let out = '';
    await printReport({ stdout: { write: () => true }, stderr: { write: (s: string) => (out += s) }, stdin: process.stdin, cwd: '.' }, [1, 2, 3, 4, 5].map((n) => empty(n)));
    expect(out.trimEnd().split('\n')).toEqual([`a.yaml:1:1: ${EMPTY_TEXT} [empty-document: 5 errors like this one, also in a.yaml:2:1, a.yaml:3:1, a.yaml:4:1 and 1 more]`, '5 errors, 0 warnings']);
  });
});
