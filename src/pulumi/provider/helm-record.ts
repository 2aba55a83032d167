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
  /** The chart's hooks, with how each last ran (`helm test` records its test pods' phases here). */
  readonly hooks?: readonly HelmHookRecord[] | undefined;
}

/** One hook of a release record. */
export interface HelmHookRecord {
  readonly name?: string | undefined;
  readonly kind?: string | undefined;
  /** `test`, `pre-install`, ... */
  readonly events?: readonly string[] | undefined;
  readonly last_run?: { readonly phase?: string | undefined } | undefined;
}

/** Name of the Secret (or ConfigMap) holding one revision of a release. */
export function releaseRecordName(release: string, revision: number): string {
  return `sh.helm.release.v1.${release}.v${revision}`;
}

/**
 * The most a release record may take once gunzipped: 100 MiB, Helm's own `MaxDecompressedChartSize`
 * (the largest chart Helm loads; a record is mostly its chart's files). The record must fit in a
 * Secret, at most 1 MiB, so a legitimate one is a few MiB at most once expanded; gzip turns 1 MiB of
 * zeros into 1 GiB, so without a cap a hostile record (2.8 MB became 1.5 GB) would take the
 * deployment's memory. The gate only reads `info.last_deployed`: past the cap it warns and waits
 * its whole timeout instead of sharing the deadline.
 */
export const MAX_RELEASE_RECORD_BYTES = 100 * 1024 * 1024;

/**
 * The most bytes a Secret or ConfigMap answer of a release record is read to: the API server keeps
 * no object larger than etcd's 1.5 MiB request limit, with room for its JSON.
 */
const MAX_RECORD_ANSWER_BYTES = 8 * 1024 * 1024;

/** A release record that expands past {@link MAX_RELEASE_RECORD_BYTES} once gunzipped. */
export class ReleaseRecordTooLargeError extends Error {
  public override readonly name = 'ReleaseRecordTooLargeError';
}

/**
 * Decodes Helm's storage encoding: base64 of gzipped JSON (gzip is optional, as in Helm's
 * `decodeRelease`). A Secret's `data.release` carries one more base64 layer, Kubernetes' own.
 * @param maxBytes - the most the JSON may take once gunzipped
 * @throws ReleaseRecordTooLargeError past `maxBytes`, without expanding more than that
 */
export function decodeReleaseRecord(encoded: string, fromSecret: boolean, maxBytes = MAX_RELEASE_RECORD_BYTES): HelmReleaseRecord {
  let bytes = Buffer.from(encoded, 'base64');
  if (fromSecret) bytes = Buffer.from(bytes.toString('utf8'), 'base64');
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      // zlib stops at maxOutputLength instead of growing its buffer to whatever the stream says.
      bytes = gunzipSync(bytes, { maxOutputLength: maxBytes });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE') throw e;
      throw new ReleaseRecordTooLargeError(
        `the record is larger than ${maxBytes} bytes once gunzipped (${bytes.length} bytes compressed); Helm loads no chart larger than 100 MiB, so it was not read`,
      );
    }
  }
  if (bytes.length > maxBytes) throw new ReleaseRecordTooLargeError(`the record is larger than ${maxBytes} bytes; Helm loads no chart larger than 100 MiB, so it was not read`);
  return JSON.parse(bytes.toString('utf8')) as HelmReleaseRecord;
}

/** The opposite of {@link decodeReleaseRecord}, for tests and tools. */
export function encodeReleaseRecord(record: HelmReleaseRecord, forSecret: boolean): string {
  const helm = gzipSync(Buffer.from(JSON.stringify(record), 'utf8')).toString('base64');
  return forSecret ? Buffer.from(helm, 'utf8').toString('base64') : helm;
}

/**
 * One revision's record, read from the Secret Helm writes by default, or from the ConfigMap of the
 * `configmap` storage driver.
 * @throws Error saying what could not be read
 */
export async function readReleaseRecord(kubeConfig: KubeConfigLike, namespace: string, release: string, revision: number, request: typeof kubeRequest = kubeRequest): Promise<HelmReleaseRecord> {
  const name = releaseRecordName(release, revision);
  const secret = await request(kubeConfig, { method: 'GET', path: `${COLLECTIONS.secret(namespace)}/${encodeURIComponent(name)}`, maxBodyBytes: MAX_RECORD_ANSWER_BYTES });
  if (secret.status === 200 && typeof secret.body?.data?.release === 'string') return decodeRecord(secret.body.data.release, true, `${namespace}/${name}`);
  const configMap = await request(kubeConfig, { method: 'GET', path: `${COLLECTIONS.configmap(namespace)}/${encodeURIComponent(name)}`, maxBodyBytes: MAX_RECORD_ANSWER_BYTES });
  if (configMap.status !== 200 || typeof configMap.body?.data?.release !== 'string') {
    throw new Error(`no Helm release record ${namespace}/${name} (Secret: ${describeFailure(secret)}; ConfigMap: ${describeFailure(configMap)})`);
  }
  return decodeRecord(configMap.body.data.release, false, `${namespace}/${name}`);
}

/**
 * When the revision's install or upgrade started (`info.last_deployed`, epoch ms), from its record.
 * @throws Error saying what could not be read, for the caller to fall back on
 */
export async function readDeployStart(kubeConfig: KubeConfigLike, namespace: string, release: string, revision: number): Promise<number> {
  const name = releaseRecordName(release, revision);
  const record = await readReleaseRecord(kubeConfig, namespace, release, revision);
  const at = Date.parse(record.info?.last_deployed ?? '');
  if (!Number.isFinite(at)) throw new Error(`Helm release record ${namespace}/${name} has no readable info.last_deployed`);
  return at;
}

/** {@link decodeReleaseRecord}, its errors naming the record. */
function decodeRecord(encoded: string, fromSecret: boolean, what: string): HelmReleaseRecord {
  try {
    return decodeReleaseRecord(encoded, fromSecret);
  } catch (e) {
    throw new Error(`Helm release record ${what}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}
