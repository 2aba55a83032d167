/**
 * What Helm 3 and Helm 4 make of a values file as Armada writes it (issue 45, class 8): Armada
 * writes values with PyYAML's yaml.safe_dump (armada/handlers/helm.py, _TempValuesFile), which
 * leaves strings such as `y`, `0o755` and `1e3` unquoted (test/model/armada-retyped-values.test.ts
 * checks that against PyYAML). The real Helm decides what it reads: here it must agree with
 * helmReadingUnderArmada, which the `values-retyped` warnings (imported sites, ArmadaDocuments) are built on.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { helmReadingUnderArmada } from '../src/model/armada-retyped';
import { runTool } from './stack';

// Strings PyYAML's safe_dump writes plain: some Helm re-types, some it keeps.
const PLAIN = ['y', 'Y', 'n', 'N', '1e3', '-1e3', '1.5e3', '.5e3', '+.5', '0o755', '0X1F', '0B11', '09', '-09', '08', 'ok', '1e400', '0o', '0:30', '2001-1-2'];

describe.each(['helm3', 'helm4'] as const)('%s reads a values file written as yaml.safe_dump writes it', (helm) => {
  let rendered: Record<string, unknown>;

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `armada-cdk-retyping-${helm}-`));
    fs.mkdirSync(path.join(dir, 'chart', 'templates'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'chart', 'Chart.yaml'), 'apiVersion: v2\nname: probe\nversion: 0.1.0\n');
    fs.writeFileSync(path.join(dir, 'chart', 'templates', 'values.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: probe}\ndata:\n  values: {{ toJson .Values | quote }}\n');
    // safe_dump sorts keys ("Y" before "y") and writes these strings plain.
    const values = `${PLAIN.map((s, i) => `v${String(i).padStart(2, '0')}: ${s}\n`).join('')}Y: upper\ny: lower\n`;
    fs.writeFileSync(path.join(dir, 'values.yaml'), values);
    const { stdout } = await runTool(helm, ['template', 'r', path.join(dir, 'chart'), '-f', path.join(dir, 'values.yaml')]);
    const line = /^ {2}values: (".*")$/m.exec(stdout);
    rendered = JSON.parse(JSON.parse(line![1]) as string) as Record<string, unknown>;
  });

  test.each(PLAIN.map((s, i) => [s, i]))('%j as helmReadingUnderArmada says', (s, i) => {
    const got = rendered[`v${String(i).padStart(2, '0')}`];
    const reading = helmReadingUnderArmada(s as string);
    if (reading === undefined) expect(got).toBe(s);
    else if (reading.what.startsWith('the boolean ')) expect(`the boolean ${String(got)}`).toBe(reading.what);
    else expect([typeof got, got]).toEqual(['number', Number(reading.what.slice('the number '.length))]);
  });

  test('the keys y and Y become one key "true", with the value of y (written last)', () => {
    expect([rendered.true, rendered.y, rendered.Y]).toEqual(['lower', undefined, undefined]);
  });
});
