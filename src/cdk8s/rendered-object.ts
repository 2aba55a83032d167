import * as cdk8s from 'cdk8s';
import { Construct } from 'constructs';

/** Identity of a rendered object, for cdk8s's bookkeeping (file names, construct metadata). */
export interface RenderedIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string | undefined;
}

/**
 * An API object whose JSON is computed by an armada-cdk wire writer. It bypasses cdk8s's own
 * sanitizer on purpose: that one drops `null`, which in Helm values means "remove this default".
 * The writers already produce a deterministic key order.
 */
export class RenderedObject extends cdk8s.ApiObject {
  private readonly body: Record<string, unknown>;

  constructor(scope: Construct, id: string, identity: RenderedIdentity, body: Record<string, unknown>) {
    super(scope, id, { apiVersion: identity.apiVersion, kind: identity.kind, metadata: identity.namespace === undefined ? { name: identity.name } : { name: identity.name, namespace: identity.namespace } });
    this.body = body;
  }

  public override toJson(): any {
    return this.body;
  }
}
