/** The `armada:index:ChartGroup` component: one listing of a chart group in a deployment. */
import * as pulumi from '@pulumi/pulumi';

/** One listing of a chart group: the charts it deploys. */
export class ChartGroupDeployment extends pulumi.ComponentResource {
  constructor(name: string, opts: pulumi.ComponentResourceOptions) {
    super('armada:index:ChartGroup', name, {}, opts);
  }

  /** @internal Called once the group's charts exist. */
  public _done(): void {
    this.registerOutputs({});
  }
}
