import * as pulumi from '@pulumi/pulumi';
import * as path from 'path';
import { SITES } from './helpers';

pulumi.runtime.setMocks({
  newResource: (args) => ({ id: `${args.name}-id`, state: args.inputs }),
  call: (args) => args.inputs,
});

describe("armada-cdk/pulumi's loadPeglegSite", () => {
  test('secret chart values are Pulumi secrets; the others stay plain', async () => {
    const { loadPeglegSite } = await import('../../src/pulumi');
    const manifest = await loadPeglegSite({ files: [path.join(SITES, 'tm-v1.9-fca290a--airskiff', 'rendered.yaml')], rendered: true });
    const keystone = manifest.resolve().spec.charts.find((c) => c.name === 'keystone')!;
    const identity = (keystone.values as { endpoints: { identity: { auth: { admin: { password: unknown; username: unknown } } } } }).endpoints.identity.auth.admin;
    expect(pulumi.Output.isInstance(identity.password)).toBe(true);
    const out = identity.password as pulumi.Output<string>;
    expect(await (out as unknown as { isSecret: Promise<boolean> }).isSecret).toBe(true);
    expect(identity.username).toBe('admin');
  });
});
