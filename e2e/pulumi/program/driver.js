// Runs this folder's program (index.js) with the Pulumi CLI built by the e2e harness, through the
// Automation API: `node driver.js up|preview|destroy`. The Node.js language host is not built (its
// module is not served to this project), so the program is an inline one: the SDK serves the
// language runtime itself and the CLI runs `pulumi up --client=127.0.0.1:<port>` against it.
// Writes every engine event, one JSON object a line, to ARMADA_CDK_E2E_EVENTS, and the summary of
// the operation as JSON on stdout.
'use strict';
const fs = require('node:fs');
const { LocalWorkspace, PulumiCommand } = require('@pulumi/pulumi/automation');
const { program } = require('./index.js');

async function main(action) {
  const env = process.env;
  const pulumiCommand = await PulumiCommand.get({ root: env.ARMADA_CDK_E2E_PULUMI_ROOT });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: 'e2e', projectName: 'armada-cdk-e2e', program },
    {
      pulumiCommand,
      workDir: __dirname,
      projectSettings: { name: 'armada-cdk-e2e', runtime: 'nodejs', backend: { url: env.PULUMI_BACKEND_URL } },
    },
  );
  await stack.setConfig('kubeconfig', { value: env.KUBECONFIG, secret: true });
  const events = fs.openSync(env.ARMADA_CDK_E2E_EVENTS, 'a');
  const onEvent = (e) => fs.writeSync(events, JSON.stringify(e) + '\n');
  const onOutput = (s) => process.stderr.write(s);
  let summary;
  if (action === 'up') summary = (await stack.up({ onEvent, onOutput })).summary;
  else if (action === 'preview') summary = { changeSummary: (await stack.preview({ onEvent, onOutput, diff: true })).changeSummary };
  else if (action === 'destroy') summary = (await stack.destroy({ onEvent, onOutput })).summary;
  else throw new Error(`usage: node driver.js up|preview|destroy (received ${JSON.stringify(action)})`);
  fs.closeSync(events);
  process.stdout.write(JSON.stringify(summary) + '\n');
}

main(process.argv[2]).catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
