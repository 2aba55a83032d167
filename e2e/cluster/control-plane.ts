/**
 * The control plane on 127.0.0.1: etcd, kube-apiserver (RBAC on, a static admin token), the
 * controller manager and the scheduler, and kwok managing a few fake nodes. Everything lives in one
 * temporary directory: data, keys, logs and the kubeconfig.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as path from 'node:path';
import type { StackBinaries } from '../build';
import { freePorts, ProcessGroup, ServerProcess, waitUntil } from './processes';

/** Where a started control plane can be reached. */
export interface ControlPlaneInfo {
  readonly server: string;
  readonly kubeconfig: string;
  /** The API server's serving certificate bundle (self-signed, made by the API server itself). */
  readonly caFile: string;
  readonly nodes: readonly string[];
}

/** The fake nodes: enough that a DaemonSet has several pods and a StatefulSet spreads. */
export const FAKE_NODES = ['kwok-node-0', 'kwok-node-1', 'kwok-node-2'] as const;

const START_TIMEOUT_MS = 120_000;

export class ControlPlane {
  private apiserver: ServerProcess | undefined;
  private apiserverArgs: string[] = [];
  private readonly token = randomBytes(24).toString('hex');

  constructor(
    private readonly bin: StackBinaries,
    private readonly dir: string,
    private readonly processes: ProcessGroup,
    private readonly log: (line: string) => void,
  ) {}

  public async start(): Promise<ControlPlaneInfo> {
    const pki = path.join(this.dir, 'pki');
    fs.mkdirSync(pki, { recursive: true, mode: 0o700 });
    const [etcdClient, etcdPeer, apiPort, kwokPort] = await freePorts(4);
    const server = `https://127.0.0.1:${apiPort}`;

    // etcd: one member, no fsync (the data is thrown away).
    const etcdUrl = `http://127.0.0.1:${etcdClient}`;
    const etcd = this.processes.start('etcd', this.bin.etcd, [
      '--name=e2e',
      `--data-dir=${path.join(this.dir, 'etcd')}`,
      `--listen-client-urls=${etcdUrl}`,
      `--advertise-client-urls=${etcdUrl}`,
      `--listen-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${etcdPeer}`,
      `--initial-cluster=e2e=http://127.0.0.1:${etcdPeer}`,
      '--unsafe-no-fsync',
      '--log-level=warn',
    ]);
    await waitUntil('etcd to be healthy', () => httpOk(`${etcdUrl}/health`), etcd, START_TIMEOUT_MS);
    this.log(`etcd ready at ${etcdUrl}`);

    // The service account signing key; the API server makes its own serving certificate in pki/.
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const saKey = path.join(pki, 'sa.key');
    const saPub = path.join(pki, 'sa.pub');
    fs.writeFileSync(saKey, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    fs.writeFileSync(saPub, publicKey.export({ type: 'spki', format: 'pem' }));
    const tokens = path.join(pki, 'tokens.csv');
    fs.writeFileSync(tokens, `${this.token},e2e-admin,e2e-admin,"system:masters"\n`, { mode: 0o600 });

    this.apiserverArgs = [
      `--etcd-servers=${etcdUrl}`,
      '--bind-address=127.0.0.1',
      '--advertise-address=127.0.0.1',
      `--secure-port=${apiPort}`,
      `--cert-dir=${pki}`,
      `--token-auth-file=${tokens}`,
      '--authorization-mode=RBAC',
      '--service-cluster-ip-range=10.96.0.0/16',
      `--service-account-key-file=${saPub}`,
      `--service-account-signing-key-file=${saKey}`,
      '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
      '--allow-privileged=true',
      '--profiling=false',
      '--v=1',
    ];
    await this.startApiServer(server);
    const caFile = path.join(pki, 'apiserver.crt');

    const kubeconfig = path.join(this.dir, 'kubeconfig');
    fs.writeFileSync(kubeconfig, kubeconfigYaml(server, fs.readFileSync(caFile), this.token), { mode: 0o600 });

    this.processes.start('kube-controller-manager', this.bin.kubeControllerManager, [
      `--kubeconfig=${kubeconfig}`,
      '--leader-elect=false',
      '--secure-port=0',
      `--service-account-private-key-file=${saKey}`,
      `--root-ca-file=${caFile}`,
      // Fake nodes send no kubelet heartbeats the lifecycle controller trusts; it would evict their pods.
      '--controllers=*,-node-lifecycle-controller',
      '--profiling=false',
      '--v=1',
    ]);
    this.processes.start('kube-scheduler', this.bin.kubeScheduler, [`--kubeconfig=${kubeconfig}`, '--leader-elect=false', '--secure-port=0', '--v=1']);
    this.processes.start('kwok', this.bin.kwok, [
      `--kubeconfig=${kubeconfig}`,
      `--config=${path.join(__dirname, 'kwok-stages.yaml')}`,
      '--manage-all-nodes=false',
      '--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake',
      `--server-address=127.0.0.1:${kwokPort}`,
    ]);

    await this.createNodes(kubeconfig);
    this.log(`control plane ready at ${server} with nodes ${FAKE_NODES.join(', ')}`);
    return { server, kubeconfig, caFile, nodes: FAKE_NODES };
  }

  /**
   * Stops the API server and starts it again on the same port and data: every watch breaks and
   * clients must resume. Resolves once it serves again.
   */
  public async restartApiServer(downMs = 0): Promise<void> {
    if (this.apiserver) await this.processes.stop(this.apiserver);
    if (downMs > 0) await new Promise((r) => setTimeout(r, downMs));
    await this.startApiServer(`https://127.0.0.1:${/--secure-port=(\d+)/.exec(this.apiserverArgs.join(' '))![1]}`);
  }

  private async startApiServer(server: string): Promise<void> {
    this.apiserver = this.processes.start('kube-apiserver', this.bin.kubeApiserver, this.apiserverArgs);
    await waitUntil('kube-apiserver to be ready', () => httpOk(`${server}/readyz`, this.token), this.apiserver, START_TIMEOUT_MS);
    this.log(`kube-apiserver ready at ${server}`);
  }

  private async createNodes(kubeconfig: string): Promise<void> {
    const nodes = FAKE_NODES.map((name) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name,
        annotations: { 'kwok.x-k8s.io/node': 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
        labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', type: 'kwok' },
      },
    }));
    const manifest = path.join(this.dir, 'nodes.json');
    fs.writeFileSync(manifest, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: nodes }));
    const { execFileSync } = await import('node:child_process');
    // The controller manager and the scheduler may still be starting: retry until the apply succeeds.
    await waitUntil(
      'the fake nodes to be created',
      async () => {
        execFileSync(this.bin.kubectl, ['--kubeconfig', kubeconfig, 'apply', '-f', manifest], { stdio: 'pipe' });
        return true;
      },
      undefined,
      START_TIMEOUT_MS,
    );
    await waitUntil(
      'kwok to mark the fake nodes Ready',
      async () => {
        const out = execFileSync(this.bin.kubectl, ['--kubeconfig', kubeconfig, 'get', 'nodes', '-o', 'jsonpath={range .items[*]}{.status.conditions[?(@.type=="Ready")].status}{"\\n"}{end}'], { encoding: 'utf8' });
        return out.split('\n').filter((s) => s === 'True').length === FAKE_NODES.length;
      },
      this.processes.list().find((p) => p.name === 'kwok'),
      START_TIMEOUT_MS,
    );
    // The API server taints every new node not-ready; the node lifecycle controller, which would
    // lift the taint once the node is Ready, is off (see above), so lift it here.
    for (const name of FAKE_NODES) {
      execFileSync(this.bin.kubectl, ['--kubeconfig', kubeconfig, 'patch', 'node', name, '--type=merge', '-p', '{"spec":{"taints":null}}'], { stdio: 'pipe' });
    }
  }
}

function kubeconfigYaml(server: string, ca: Buffer, token: string): string {
  // JSON is YAML: no quoting rules to get wrong.
  return JSON.stringify(
    {
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'e2e', cluster: { server, 'certificate-authority-data': ca.toString('base64') } }],
      users: [{ name: 'e2e-admin', user: { token } }],
      contexts: [{ name: 'e2e', context: { cluster: 'e2e', user: 'e2e-admin' } }],
      'current-context': 'e2e',
    },
    null,
    2,
  );
}

/** GET `url`; true on a 2xx answer. The probe trusts the loopback server's self-signed certificate. */
function httpOk(url: string, token?: string): Promise<boolean> {
  return new Promise((resolve) => {
    const get = url.startsWith('https:') ? https.get : http.get;
    const req = get(url, { rejectUnauthorized: false, headers: token ? { authorization: `Bearer ${token}` } : {}, timeout: 2000 }, (res) => {
      res.resume();
      resolve((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
  });
}
