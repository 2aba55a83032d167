/**
 * The diagnostics toolkit: the one-line layouts every surface prints, the summaries, the
 * severity helpers, the "did you mean" rules, and the code registry the JSON output draws on.
 */
import { DiagnosticCodes } from '../../src/model/codes';
import {
  ArmadaValidationError,
  Diagnostic,
  ConstructOrigin,
  diagnosticsMessage,
  Diagnostics,
  editDistance,
  errorsOf,
  formatDiagnostic,
  hasErrors,
  isError,
  plural,
  suggest,
  SuggestionRules,
  summary,
  warningsOf,
} from '../../src/model/diagnostics';
import { LoadCodes } from '../../src/importer/load/codes';
import { cli, tmpdir, write } from '../helpers/cli';
import { readShared, sharedPath } from '../helpers/shared';

const inFile: Diagnostic = { severity: 'error', location: 'site.yaml:3:5', document: 'armada/Chart/v1 db', field: 'data.wait.timeout', code: 'timeout', message: 'received "x"; must be seconds' };
const inConstruct: Diagnostic = { severity: 'warning', location: 'site/infra/db', code: 'wait-no-labels', message: 'waits on every pod' };
const unplaced: Diagnostic = { severity: 'error', location: '', field: 'name', code: 'name', message: 'empty' };

describe('formatDiagnostic', () => {
  test('severity-first, the default: severity, then where, then what', () => {
    expect(formatDiagnostic(inFile)).toBe('error: site.yaml:3:5: armada/Chart/v1 db: data.wait.timeout: received "x"; must be seconds');
    expect(formatDiagnostic(inConstruct, 'severity-first')).toBe('warning: site/infra/db: waits on every pod');
    expect(formatDiagnostic(unplaced)).toBe('error: : name: empty');
  });

  test('compiler: the location first, as the CLI prints it, empty parts left out', () => {
    expect(formatDiagnostic(inFile, 'compiler')).toBe('site.yaml:3:5: error: armada/Chart/v1 db: data.wait.timeout: received "x"; must be seconds');
    expect(formatDiagnostic(inConstruct, 'compiler')).toBe('site/infra/db: warning: waits on every pod');
    expect(formatDiagnostic(unplaced, 'compiler')).toBe('error: name: empty');
  });

  test('control characters, line breaks and bidirectional overrides from names and keys are escaped, in every layout', () => {
    const forged: Diagnostic = { severity: 'warning', location: 'a.yaml:1:1', document: 'armada/Chart/v1 a\u001b[2J\rb\nfake.yaml:1:1: error: forged', field: 'data.values.k\u2028\u202e\t\u009b', code: 'c', message: 'm\u0000' };
    expect(formatDiagnostic(forged, 'compiler')).toBe('a.yaml:1:1: warning: armada/Chart/v1 a\\x1b[2J\\rb\\nfake.yaml:1:1: error: forged: data.values.k\\u2028\\u202e\\t\\x9b: m\\x00');
    for (const layout of ['compiler', 'bare', 'severity-first'] as const) expect(formatDiagnostic(forged, layout)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u202e]/);
    // Text that needs no escape is the same string.
    expect(formatDiagnostic(inFile, 'compiler')).toBe('site.yaml:3:5: error: armada/Chart/v1 db: data.wait.timeout: received "x"; must be seconds');
  });

  test('bare: no severity, for the messages cdk8s labels itself', () => {
    expect(formatDiagnostic(inFile, 'bare')).toBe('site.yaml:3:5: armada/Chart/v1 db: data.wait.timeout: received "x"; must be seconds');
    expect(formatDiagnostic(inConstruct, 'bare')).toBe('site/infra/db: waits on every pod');
    expect(formatDiagnostic(unplaced, 'bare')).toBe('name: empty');
  });
});

describe('severity helpers and summaries', () => {
  const ds = [inConstruct, inFile, unplaced];

  test('isError, hasErrors, errorsOf and warningsOf keep the order', () => {
    expect([isError(inFile), isError(inConstruct)]).toEqual([true, false]);
    expect([hasErrors(ds), hasErrors([inConstruct]), hasErrors([])]).toEqual([true, false, false]);
    expect(errorsOf(ds)).toEqual([inFile, unplaced]);
    expect(warningsOf(ds)).toEqual([inConstruct]);
  });

  test('plural and summary count in words', () => {
    expect([plural(0, 'chart'), plural(1, 'chart'), plural(2, 'chart')]).toEqual(['0 charts', '1 chart', '2 charts']);
    expect(summary(ds)).toBe('2 errors, 1 warning');
    expect(summary([inFile])).toBe('1 error, 0 warnings');
  });

  test('an aggregated error lists every diagnostic under its heading', () => {
    expect(diagnosticsMessage('chart "db" has 1 error', [inFile])).toBe('chart "db" has 1 error:\n  error: site.yaml:3:5: armada/Chart/v1 db: data.wait.timeout: received "x"; must be seconds');
    const e = new ArmadaValidationError([inConstruct, inFile], 'ArmadaManifest site');
    expect(e.message).toBe(
      'ArmadaManifest site failed with 1 error:\n  warning: site/infra/db: waits on every pod\n  error: site.yaml:3:5: armada/Chart/v1 db: data.wait.timeout: received "x"; must be seconds',
    );
    expect(e.diagnostics).toEqual([inConstruct, inFile]);
  });
});

describe('Diagnostics.warnOf', () => {
  test('writes the message from the value and the field, once, and reads like warn', () => {
    const d = new Diagnostics();
    const calls: unknown[] = [];
    const write = (v: { n: number }, field: readonly (string | number)[]) => {
      calls.push(v);
      return `${v.n} at ${field.join('.')}`;
    };
    const value = { n: 3 };
    d.warnOf(new ConstructOrigin('site/db'), ['wait', 'labels'], 'not-expressible', write, value);
    d.warnOf(new ConstructOrigin('site/db'), undefined, 'not-expressible', write, { n: 4 });
    expect(calls).toEqual([value, { n: 4 }]);
    expect(d.all).toEqual([
      { severity: 'warning', location: 'site/db', field: 'wait.labels', message: '3 at wait.labels', code: 'not-expressible' },
      { severity: 'warning', location: 'site/db', message: '4 at ', code: 'not-expressible' },
    ]);
  });
});

describe('suggest', () => {
  test('editDistance: Levenshtein, or with adjacent transpositions as one edit', () => {
    expect([editDistance('', 'abc'), editDistance('kitten', 'sitting'), editDistance('lables', 'labels')]).toEqual([3, 3, 2]);
    expect(editDistance('lables', 'labels', true)).toBe(1);
  });

  test('NAME (the default): case counts, two edits always allowed, ties go to the alphabetical first', () => {
    expect(suggest('infra-grup', ['apps', 'infra-group'])).toBe('infra-group');
    expect(suggest('ab', ['zz', 'cd', 'ce'])).toBe('cd');
    expect(suggest('Job', ['job', 'pod'])).toBe('job');
    expect(suggest('deployment', ['deployment'])).toBe('deployment');
    expect(suggest('mariadb', ['keystone', 'glance'])).toBeUndefined();
    expect(suggest('a', [])).toBeUndefined();
  });

  test('ARMADA_KEY: case ignored, a swap is one edit, one edit in three characters, never the word itself', () => {
    expect(suggest('sequnced', ['description', 'sequenced'], SuggestionRules.ARMADA_KEY)).toBe('sequenced');
    expect(suggest('lables', ['labels'], SuggestionRules.ARMADA_KEY)).toBe('labels');
    expect(suggest('lables', ['labels'], SuggestionRules.NAME)).toBe('labels');
    expect(suggest('ab', ['ba'], SuggestionRules.ARMADA_KEY)).toBe('ba');
    expect(suggest('ab', ['ba'], SuggestionRules.VALUES_KEY)).toBeUndefined();
    expect(suggest('Armada/Chart/v1', ['armada/Chart/v1', 'armada/Chart/v2'], SuggestionRules.ARMADA_KEY)).toBe('armada/Chart/v1');
    expect(suggest('release', ['release'], SuggestionRules.ARMADA_KEY)).toBeUndefined();
    expect(suggest('xy', ['ab', 'xz', 'xw'], SuggestionRules.ARMADA_KEY)).toBe('xz');
  });

  test('VALUES_KEY: a difference of case is distance 0; at most two edits, one per three characters', () => {
    expect(suggest('REPLICAS', ['image', 'replicas'], SuggestionRules.VALUES_KEY)).toBe('replicas');
    expect(suggest('replcas', ['replicas'], SuggestionRules.VALUES_KEY)).toBe('replicas');
    expect(suggest('imgae', ['image'], SuggestionRules.VALUES_KEY)).toBeUndefined();
    expect(suggest('replcs', ['replicas'], SuggestionRules.VALUES_KEY)).toBe('replicas');
    expect(suggest('rplcs', ['replicas'], SuggestionRules.VALUES_KEY)).toBeUndefined();
  });
});

describe('diagnostic codes', () => {
  const registered = new Set<string>([...Object.values(DiagnosticCodes), ...Object.values(LoadCodes)]);

  test('every registered code is distinct', () => {
    const all = [...Object.values(DiagnosticCodes), ...Object.values(LoadCodes)];
    expect(all.length).toBe(new Set(all).size);
  });

  test('validate --format json carries a registered code on every diagnostic', async () => {
    const dir = tmpdir();
    const simple = readShared('corpus', 'armada__examples__simple.yaml');
    const inputs = [
      sharedPath('corpus', 'openstack-helm__tools__deployment__armada__manifests__armada-osh.yaml'),
      write(dir, 'typo.yaml', simple.replace('sequenced: False', 'sequnced: False')),
      write(dir, 'group.yaml', simple.replace('- blog-group', '- blog-grop')),
      write(dir, 'placeholder.yaml', simple.replace('release: blog-1', 'release: ${RELEASE}')),
    ];
    const codes = new Map<string, string>();
    for (const f of inputs) {
      const out = JSON.parse((await cli(['validate', f, '--format', 'json'])).stdout) as { diagnostics: { code: string; message: string }[] };
      expect(out.diagnostics.length).toBeGreaterThan(0);
      for (const d of out.diagnostics) codes.set(d.code, d.message);
    }
    expect([...codes.keys()].filter((c) => !registered.has(c))).toEqual([]);
    expect([...codes.keys()]).toEqual(expect.arrayContaining(['ARM100', 'ARM001', 'wait-no-labels', 'unexpanded-placeholder']));
  });
});
