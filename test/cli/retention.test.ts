/**
 * A run keeps nothing of its input once it is over. A long-running process (a Pulumi program, a
 * cdk8s app, a test runner) reads many sites; what the loader and the writers cache across runs
 * (kept position indexes, resolved keys, compiled schemas) must not hold on to a stream's text.
 * V8 makes every substring of 13 characters or more a view of its whole stream, so one cached key
 * or one kept chunk is enough to keep megabytes alive.
 */
import { execFileSync } from 'child_process';
import * as v8 from 'v8';
import * as vm from 'vm';
import { cli, tmpdir, write } from '../helpers/cli';
import { sharedPath } from '../helpers/shared';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** The heap in use once the current task is over (what it kept for its own duration is let go). */
async function heapAfterGc(): Promise<number> {
  await new Promise((resolve) => setImmediate(resolve));
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * How much the heap grew since `before`: the least of three looks, each after the event loop has
 * turned again. In two of six runs of the whole CLI suite, one look found a stream's text still
 * held (by something not yet found; never in a run of this file alone, nor in a later look); what
 * a run keeps is there in every look.
 */
async function growth(before: number): Promise<number> {
  let least = Infinity;
  for (let i = 0; i < 3; i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50));
    least = Math.min(least, (await heapAfterGc()) - before);
  }
  return least;
}

/** Charts whose values have keys of their own, long enough to be views of the stream. */
function longKeySite(charts: number, tag: string): string {
  const docs: string[] = [];
  const names: string[] = [];
  for (let i = 0; i < charts; i++) {
    names.push(`chart-${i}`);
    const values = Array.from({ length: 20 }, (_, k) => `    ${tag}_a_value_key_spelled_out_${i}_${k}: value number ${k} of chart ${i}`).join('\n');
    docs.push(
      `schema: armada/Chart/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: chart-${i}\ndata:\n  chart_name: chart-${i}\n  release: chart-${i}\n  namespace: ns\n` +
        `  wait:\n    timeout: 100\n  upgrade:\n    no_hooks: false\n  values:\n${values}\n  source:\n    type: git\n    location: https://example.com/charts.git\n    subpath: chart-${i}\n  dependencies: []\n`,
    );
  }
  docs.push(`schema: armada/ChartGroup/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: group\ndata:\n  description: all of them\n  chart_group:\n${names.map((n) => `    - ${n}`).join('\n')}\n`);
  docs.push(`schema: armada/Manifest/v1\nmetadata:\n  schema: metadata/Document/v1\n  name: site\ndata:\n  release_prefix: site\n  chart_groups:\n    - group\n`);
  return docs.map((d) => `---\n${d}`).join('');
}

/** Runs the CLI and checks what it printed, keeping none of it (the report is not the input). */
async function runAndCheck(args: string[]): Promise<void> {
  const r = await cli(args);
  expect([0, 1]).toContain(r.code);
  // warnings were located, so position indexes were built and kept during the run
  expect(r.stderr + r.stdout).toMatch(/\.yaml:\d+:\d+/);
  // V8 keeps the subject of the last regular expression match (for `RegExp.lastMatch`): one more
  // match on a short string, so that the printed report is not what is measured.
  /x/.test('x');
}

describe('what a run leaves behind', () => {
  const dir = tmpdir();
  const commands = ['validate', 'plan', 'convert --to documents-v1', 'convert --to documents-v2', 'convert --to airship-v1', 'convert --to flux-v2', 'convert --to keleustes-v1alpha1'];

  beforeAll(async () => {
    // A first run of each command loads its modules, validators and compiled code, which stay
    // (they are not input), and fills the key caches to their bound with keys of its own site.
    const warm = write(dir, 'warm.yaml', longKeySite(1500, 'warm'));
    for (const c of commands) {
      const [cmd, ...rest] = c.split(' ');
      await cli([cmd, warm, ...rest]);
    }
  }, 60_000);

  it.each(commands)(
    '%s of a site with thousands of long keys keeps none of its text',
    async (command) => {
      const [cmd, ...rest] = command.split(' ');
      const tag = command.replace(/\W/g, '_');
      const text = longKeySite(1500, tag);
      const file = write(dir, `${tag}.yaml`, text);
      // the state before: what a run of a small site leaves (nothing of the big site can be in it)
      await runAndCheck([cmd, write(dir, `${tag}-small.yaml`, longKeySite(10, `${tag}_small`)), ...rest, '--all-warnings']);
      const before = await heapAfterGc();
      await runAndCheck([cmd, file, ...rest, '--all-warnings']);
      const grown = await growth(before);
      expect(text.length).toBeGreaterThan(2_500_000);
      expect(grown).toBeLessThan(text.length / 3);
    },
    60_000,
  );

  it('a generated site leaves nothing behind either', async () => {
    const text = execFileSync(process.execPath, [sharedPath('tools', 'gen-manifest.mjs'), '1500'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    const file = write(dir, 'generated.yaml', text);
    // the first run of the generator's site warms what its sources and dependencies need
    for (const to of ['airship-v1', 'flux-v2']) await runAndCheck(['convert', write(dir, 'generated-warm.yaml', text), '--to', to]);
    await runAndCheck(['convert', write(dir, 'generated-small.yaml', longKeySite(10, 'generated_small')), '--to', 'airship-v1']);
    const before = await heapAfterGc();
    for (const to of ['airship-v1', 'flux-v2']) await runAndCheck(['convert', file, '--to', to]);
    expect(await growth(before)).toBeLessThan(text.length / 3);
  }, 60_000);
});
