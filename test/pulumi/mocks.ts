/**
 * Pulumi's official mocks for the Pulumi backend tests. Import this module first, before any code
 * under test, so the mocks are installed when `@pulumi/pulumi` resources are created.
 */
import * as pulumi from '@pulumi/pulumi';

/** Every resource the mocks saw registered, in order. */
export const registered: pulumi.runtime.MockResourceArgs[] = [];

/** `type name` of resources whose registration fails, to play a failing deployment. */
export const failing = new Set<string>();

export function installMocks(): void {
  void pulumi.runtime.setMocks(
    {
      newResource: (args) => {
        registered.push(args);
        if (failing.has(`${args.type} ${args.name}`)) throw new Error(`mock failure of ${args.type} ${args.name}`);
        return { id: `${args.name}-id`, state: args.inputs };
      },
      call: (args) => args.inputs,
    },
    'armada-cdk',
    'test',
    false,
  );
}

installMocks();

/** A resource seen by the `transformations` option: what it was created with. */
export interface Captured {
  readonly type: string;
  readonly name: string;
  readonly props: Record<string, any>;
  readonly opts: pulumi.CustomResourceOptions & pulumi.ComponentResourceOptions;
  readonly resource: pulumi.Resource;
}

/** A `transformations` entry that records every resource below the component it is given to. */
export function capture(into: Captured[]): pulumi.ResourceTransformation {
  return (args) => {
    into.push({ type: args.type, name: args.name, props: args.props, opts: args.opts, resource: args.resource });
    return undefined;
  };
}

/** The value of an output (under mocks every value is known). */
export function valueOf<T>(o: pulumi.Input<T>): Promise<T> {
  return new Promise((resolve) => pulumi.output(o).apply((v) => resolve(v as T)));
}

/** Waits until every captured resource is registered. */
export async function settled(resources: readonly Captured[]): Promise<void> {
  await Promise.all(resources.map((c) => valueOf(c.resource.urn)));
}

export const RELEASE = 'kubernetes:helm.sh/v3:Release';
export const GATE = 'pulumi-nodejs:dynamic/armada:ReadinessGate';
export const PRE_DELETE = 'pulumi-nodejs:dynamic/armada:PreUpgradeDelete';
