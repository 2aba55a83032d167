/**
 * The one way the deployment makes its dynamic providers (readiness gate, pre-upgrade delete).
 * Pulumi serializes a provider's functions, with the values they capture, into the state and runs
 * them in its provider process, where nothing of the program is loaded. So the methods below
 * capture only plain values (the provider module's absolute path and export names) and `require`
 * that module when they run; the module itself may only `require` what is installed. Keep it so: a
 * captured import would be serialized by value, with everything it reaches.
 */
import * as path from 'node:path';
import type * as pulumi from '@pulumi/pulumi';

/** A module of `src/pulumi/provider/` and the exports that implement a provider's methods. */
export interface ProviderModule {
  /** The module's file name, without extension. */
  readonly module: string;
  /** `(inputs) => state`: what a new resource records. */
  readonly create: string;
  /** `(olds, news) => state`: what an updated resource records. */
  readonly update: string;
  /** `(olds, news) => DiffResult`. */
  readonly diff: string;
  /**
   * An error class whose instances carry the `state` of a resource that was created or updated
   * but failed afterwards; the provider reports it as Pulumi's "created but failed to initialise".
   * @default - every error fails the operation and records nothing
   */
  readonly partialFailure?: string | undefined;
}

/** The inputs every provider has: the release it works on, which names the resource's id. */
export interface ReleaseTargetInputs {
  readonly target: { readonly namespace: string; readonly release: string };
}

/**
 * A dynamic provider whose methods run the given module's exports. Its delete does nothing: none
 * of these resources owns anything in the cluster that a delete would have to undo.
 */
export function dynamicProvider<I extends ReleaseTargetInputs, S>(spec: ProviderModule): pulumi.dynamic.ResourceProvider<I, S> {
  const file = path.join(__dirname, '..', 'provider', spec.module);
  const names = { create: spec.create, update: spec.update, diff: spec.diff, partialFailure: spec.partialFailure };
  return {
    async create(inputs) {
      const id = `${inputs.target.namespace}/${inputs.target.release}`;
      return { id, outs: (await runExport(file, names.create, names.partialFailure, id, inputs, [inputs])) as S };
    },
    async update(id, olds, news) {
      return { outs: (await runExport(file, names.update, names.partialFailure, id, news, [olds, news])) as S };
    },
    async diff(_id, olds, news) {
      return require(file)[names.diff](olds, news);
    },
    async delete() {},
  };
}

/**
 * Runs one export of the provider module. A partial failure becomes the dynamic provider's
 * "created but failed to initialise" error (`id`, `properties`, `reasons`), whose properties the
 * engine stores as the resource's state: they must carry the provider itself (`__provider`), as
 * every state of a dynamic resource does, or the resource could not be updated or deleted later.
 */
async function runExport(file: string, name: string, partialFailure: string | undefined, id: string, news: object, args: readonly unknown[]): Promise<unknown> {
  const logic = require(file);
  try {
    return await logic[name](...args);
  } catch (e) {
    if (partialFailure === undefined || !(e instanceof logic[partialFailure])) throw e;
    const failure = e as Error & { state: object };
    throw Object.assign(new Error(failure.message), { id, properties: { ...failure.state, __provider: (news as Record<string, unknown>).__provider }, reasons: [failure.message] });
  }
}
