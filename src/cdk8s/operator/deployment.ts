/**
 * The operator's Deployment as plain JSON, from its profile and the bundle's options: cdk8s-plus's
 * typed Deployment would drop what its Kubernetes version does not know (image volumes) and
 * differs between its versions.
 */
import * as cdk8s from 'cdk8s';
import type { OperatorProfile } from './operator-profile';
import type { ArmadaOperatorProps, OperatorResources } from './props';

const SEED_IMAGE = 'docker.io/library/busybox:1.37.0';
const DEFAULT_RESOURCES: OperatorResources = { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '1', memory: '1Gi' } };

/** Who the Deployment's pods are: its name, namespace and labels. */
export interface DeploymentIdentity {
  readonly name: string;
  readonly namespace: string;
  readonly labels: Record<string, string>;
  readonly selector: Record<string, string>;
  readonly replicas: number;
}

type Json = Record<string, unknown>;

/** The Deployment object of the bundle. */
export function deploymentJson(profile: OperatorProfile, props: ArmadaOperatorProps, who: DeploymentIdentity): cdk8s.ApiObjectProps {
  const c = profile.container;
  const tag = props.tag ?? c.tag;
  const image = `${props.image ?? c.image}${tag.startsWith('sha256:') ? '@' : ':'}${tag}`;
  const pullPolicy = props.imagePullPolicy ?? (/^latest(-|$)/.test(tag) ? 'Always' : 'IfNotPresent');
  const user = props.user ?? 65532;
  const group = props.group ?? 65532;
  const securityContext = {
    allowPrivilegeEscalation: false,
    capabilities: { drop: ['ALL'] },
    privileged: false,
    readOnlyRootFilesystem: props.readOnlyRootFilesystem ?? true,
    runAsGroup: group,
    runAsNonRoot: true,
    runAsUser: user,
    seccompProfile: { type: 'RuntimeDefault' },
  };
  const liveness = props.liveness ?? c.liveness;
  const readiness = props.readiness ?? c.readiness;
  const tmpLimit = (props.tmpSizeLimit ?? cdk8s.Size.mebibytes(512)).toMebibytes();
  const volumes: Json[] = [{ name: 'tmp', emptyDir: { sizeLimit: `${tmpLimit}Mi` } }];
  const mounts: Json[] = [{ name: 'tmp', mountPath: '/tmp' }];
  const seeded = c.seededDirectory ? seededDirectory(c.seededDirectory, props.chartsSeedImage, image, pullPolicy, securityContext) : undefined;
  if (seeded) {
    volumes.push(...seeded.volumes);
    mounts.push(seeded.mount);
  }
  const container = {
    name: c.name,
    image,
    imagePullPolicy: pullPolicy,
    command: [...c.command],
    ...(c.args ? { args: c.args({ probeBindAddress: props.probeBindAddress, leaderElection: props.leaderElection !== false }) } : {}),
    env: c.env.map((e) => (e.fieldPath !== undefined ? { name: e.name, valueFrom: { fieldRef: { fieldPath: e.fieldPath } } } : { name: e.name, value: e.value })),
    resources: props.resources ?? DEFAULT_RESOURCES,
    ...(liveness ? { livenessProbe: liveness } : {}),
    ...(readiness ? { readinessProbe: readiness } : {}),
    securityContext,
    volumeMounts: mounts,
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: who.name, namespace: who.namespace, labels: who.labels },
    spec: {
      replicas: who.replicas,
      // A selector is immutable: stable labels, not cdk8s's construct-path label.
      selector: { matchLabels: who.selector },
      template: {
        metadata: { labels: who.labels },
        spec: {
          serviceAccountName: who.name,
          // The operator talks to the API server with this account's token.
          automountServiceAccountToken: true,
          terminationGracePeriodSeconds: 10,
          securityContext: { runAsGroup: group, runAsNonRoot: true, runAsUser: user, seccompProfile: { type: 'RuntimeDefault' } },
          ...(seeded ? { initContainers: [seeded.init] } : {}),
          containers: [container],
          volumes,
        },
      },
    },
  };
}

/**
 * A writable emptyDir seeded with the image's own content at that path: by default a busybox
 * copies it from an image volume of the operator image; a seed image of one's own holds the
 * content itself, and `cp`.
 */
function seededDirectory(dir: { readonly name: string; readonly path: string; readonly sizeLimit: string }, seed: string | undefined, image: string, pullPolicy: string, securityContext: Json) {
  const mount = { name: dir.name, mountPath: dir.path };
  const resources = { requests: { cpu: '10m', memory: '32Mi' }, limits: { cpu: '500m', memory: '128Mi' } };
  const init = seed === undefined
    ? {
        name: `seed-${dir.name}`,
        image: SEED_IMAGE,
        imagePullPolicy: 'IfNotPresent',
        command: ['cp', '-R', '/image/.', `${dir.path}/`],
        resources,
        securityContext,
        volumeMounts: [{ name: 'operator-image', mountPath: '/image', readOnly: true, subPath: dir.path.slice(1) }, mount],
      }
    : { name: `seed-${dir.name}`, image: seed, imagePullPolicy: 'IfNotPresent', command: ['cp', '-R', `${dir.path}/.`, '/seed/'], resources, securityContext, volumeMounts: [{ name: dir.name, mountPath: '/seed' }] };
  const volumes: Json[] = [{ name: dir.name, emptyDir: { sizeLimit: dir.sizeLimit } }];
  if (seed === undefined) volumes.push({ name: 'operator-image', image: { reference: image, pullPolicy } });
  return { init, volumes, mount };
}
