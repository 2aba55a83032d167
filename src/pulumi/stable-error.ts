/**
 * Errors that reach Pulumi through resource inputs. Pulumi prefixes the message of an error each
 * time it fails to serialize an input (`error serializing property "values": ...`), on the error
 * itself, so one error taken by several inputs or resources reads differently wherever it is
 * reported; and an output whose value fails rejects promises of its own that no resource awaits.
 */
import * as pulumi from '@pulumi/pulumi';

/** `error` with its message fixed as written: the prefixes Pulumi would add are dropped. */
export function withStableMessage<E extends Error>(error: E, message: string = error.message): E {
  Object.defineProperty(error, 'message', { get: () => message, set: () => undefined, configurable: true, enumerable: false });
  return error;
}

/**
 * `output`, whose failure is reported by the resource that takes it and nowhere else. An output
 * whose value fails also rejects Pulumi's bookkeeping of whether it is known and secret, with the
 * same error; a resource input awaits only the value, so the other two would surface as unhandled
 * rejections. `pulumi up` reports an error once however often it surfaces, but Pulumi's mocks and
 * test runners report each one. Where the SDK no longer holds them as promises, this does nothing.
 */
export function failingOnce<T>(output: pulumi.Output<T>): pulumi.Output<T> {
  const internal = output as unknown as { readonly isKnown?: unknown; readonly isSecret?: unknown };
  for (const p of [internal.isKnown, internal.isSecret]) {
    if (p instanceof Promise) p.catch(() => undefined);
  }
  return output;
}
