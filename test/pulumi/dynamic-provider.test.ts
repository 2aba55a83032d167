import * as path from 'node:path';
import * as pulumi from '@pulumi/pulumi';
import { preUpgradeDeleteProvider } from '../../src/pulumi/resources/pre-upgrade-delete';
import { readinessGateProvider } from '../../src/pulumi/resources/readiness-gate';

// What Pulumi stores as `__provider` and runs in its provider process, where nothing of the program is loaded.
describe.each([
  ['readiness gate', readinessGateProvider, 'readiness-gate-run'],
  ['pre-upgrade delete', preUpgradeDeleteProvider, 'pre-upgrade-delete-run'],
])('the serialized %s provider', (_name, provider, module) => {
  test('captures only plain values and requires its provider module by absolute path', async () => {
    const { text } = await pulumi.runtime.serializeFunction(() => provider);
    const file = path.join(__dirname, '../../src/pulumi/provider', module);
    expect(text).toContain(`file: ${JSON.stringify(file)}`);
    // A captured import would be serialized as `require("<module>")`, or by value.
    expect(text).not.toMatch(/require\("/);
    expect(text.match(/require\([^)]*\)/g)).toEqual(['require(file)', 'require(file)']);
    expect(require.resolve(file)).toBe(`${file}.ts`);
  });
});
