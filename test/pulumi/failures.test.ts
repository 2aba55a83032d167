import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { REGISTER_TS } from '../helpers/ts-child';

/**
 * What a failure does to the rest of the deployment, under Pulumi's mocks: the resources that
 * depend on the failed one (its gate, which runs its tests, every later step) are never registered, so they
 * never run, while the other releases of the same step carry on, as Armada's threads of an
 * unsequenced group do. `pulumi up` then fails, as `armada apply` does.
 */
function deployWithFailing(resource: string): { registered: string[]; errors: string[] } {
  const script = path.join(__dirname, 'failure.script.ts');
  // The exit status is not checked: Pulumi's leak detector fails the process when dependents of a
  // failed resource are still waiting, which is the point here.
  const run = spawnSync(process.execPath, ['-r', REGISTER_TS, script, resource], { cwd: path.join(__dirname, '..', '..'), encoding: 'utf8', timeout: 60_000 });
  const line = run.stdout.trim().split('\n').pop();
  if (!line?.startsWith('{')) throw new Error(`the failure script printed nothing: ${run.stderr}`);
  return JSON.parse(line);
}

const only = (registered: string[], prefix: string) => registered.filter((r) => r.startsWith(prefix)).map((r) => r.slice(prefix.length + 1)).sort();

describe('failures', () => {
  test('a failed release: its gate and everything after its step never run; the rest of its step does', () => {
    const { registered, errors } = deployWithFailing('kubernetes:helm.sh/v3:Release site/a/y');
    expect(only(registered, 'kubernetes:helm.sh/v3:Release')).toEqual(['site/a/x', 'site/a/y']);
    expect(only(registered, 'pulumi-nodejs:dynamic/armada:ReadinessGate')).toEqual(['site/a/x']);
    expect(errors.some((e) => e.includes('failed to register new resource site/a/y [kubernetes:helm.sh/v3:Release]: it failed'))).toBe(true);
  }, 90_000);

  test('a gate that times out or whose tests fail: everything after its step never runs', () => {
    const { registered } = deployWithFailing('pulumi-nodejs:dynamic/armada:ReadinessGate site/a/x');
    expect(only(registered, 'kubernetes:helm.sh/v3:Release')).toEqual(['site/a/x', 'site/a/y']);
    expect(only(registered, 'pulumi-nodejs:dynamic/armada:ReadinessGate')).toEqual(['site/a/x', 'site/a/y']);
  }, 90_000);

  test('no failure: the next step deploys', () => {
    const { registered, errors } = deployWithFailing('none');
    expect(only(registered, 'kubernetes:helm.sh/v3:Release')).toEqual(['site/a/x', 'site/a/y', 'site/b/z']);
    expect(errors).toEqual([]);
  }, 90_000);
});
