/**
 * Helm's own record of a release revision (`sh.helm.release.v1.<name>.v<revision>`), which is where
 * the readiness gate learns when the install or upgrade started, so that it can share one
 * deadline with it as Armada does.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import type { KubeConfigLike } from './readiness';
import { COLLECTIONS, describeFailure, kubeRequest } from './kube-rest';

/** The fields of a Helm release record the gate reads. */
export interface HelmReleaseRecord {
  readonly name?: string | undefined;
  readonly version?: number | undefined;
  readonly info?: { readonly last_deployed?: string | undefined; readonly first_deployed?: string | undefined; readonly status?: string | undefined } | undefined;
}

/** Name of the Secret (or ConfigMap) holding one revision of a release. */
export function releaseRecordName(release: string, revision: number): string {
  return `sh.helm.release.v1.${release}.v${revision}`;
}

/**
 * Decodes Helm's storage encoding: base64 of gzipped JSON (gzip is optional, as in Helm's
 * `decodeRelease`). A Secret's `data.release` carries one more base64 layer, Kubernetes' own.
 */
export function decodeReleaseRecord(encoded: string, fromSecret: boolean): HelmReleaseRecord {
  let bytes = Buffer.from(encoded, 'base64');
  if (fromSecret) bytes = Buffer.from(bytes.toString('utf8'), 'base64');
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = gunzipSync(bytes);
  return JSON.parse(bytes.toString('utf8')) as HelmReleaseRecord;
}

/** The opposite of {@link decodeReleaseRecord}, for tests and tools. */
export function encodeReleaseRecord(record: HelmReleaseRecord, forSecret: boolean): string {
  const helm = gzipSync(Buffer.from(JSON.stringify(record), 'utf8')).toString('base64');
  return forSecret ? Buffer.from(helm, 'utf8').toString('base64') : helm;
}

/**
 * When the revision's install or upgrade started (`info.last_deployed`, epoch ms), read from the
 * Secret Helm writes by default, or from the ConfigMap of the `configmap` storage driver.
 * @throws Error saying what could not be read, for the caller to fall back on
 */
export async function readDeployStart(kubeConfig: KubeConfigLike, namespace: string, release: string, revision: number): Promise<number> {
  const name = releaseRecordName(release, revision);
  const secret = await kubeRequest(kubeConfig, { method: 'GET', path: `${COLLECTIONS.secret(namespace)}/${encodeURIComponent(name)}` });
  let record: HelmReleaseRecord;
  if (secret.status === 200 && typeof secret.body?.data?.release === 'string') {
    record = decodeReleaseRecord(secret.body.data.release, true);
  } else {
    const configMap = await kubeRequest(kubeConfig, { method: 'GET', path: `${COLLECTIONS.configmap(namespace)}/${encodeURIComponent(name)}` });
    if (configMap.status !== 200 || typeof configMap.body?.data?.release !== 'string') {
      throw new Error(`no Helm release record ${namespace}/${name} (Secret: ${describeFailure(secret)}; ConfigMap: ${describeFailure(configMap)})`);
    }
    record = decodeReleaseRecord(configMap.body.data.release, false);
  }
  const at = Date.parse(record.info?.last_deployed ?? '');
  if (!Number.isFinite(at)) throw new Error(`Helm release record ${namespace}/${name} has no readable info.last_deployed`);
  return at;
}
