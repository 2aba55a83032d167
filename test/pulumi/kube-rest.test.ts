import * as net from 'node:net';
import { kubeRequest } from '../../src/pulumi/provider/kube-rest';
import type { KubeConfigLike } from '../../src/pulumi/provider/readiness';
import { FakeApiServer } from './readiness/fake-api-server';
import { pod } from './readiness/fixtures';

const PODS = '/api/v1/namespaces/openstack/pods';
let api: FakeApiServer;
beforeEach(async () => {
  api = await FakeApiServer.start();
});
afterEach(() => api.close());

test('an answer larger than maxBodyBytes fails the request', async () => {
  api.script(PODS, { lists: [{ items: Array.from({ length: 40 }, (_, i) => pod(`p-${i}`)), resourceVersion: '1' }] });
  await expect(kubeRequest(api.kubeConfig(), { method: 'GET', path: PODS, maxBodyBytes: 1000 })).rejects.toThrow(`GET ${PODS}: the answer is larger than 1000 bytes`);
  await expect(kubeRequest(api.kubeConfig(), { method: 'GET', path: PODS })).resolves.toMatchObject({ status: 200 });
});

test('credentials that cannot be applied fail without quoting what the plugin said', async () => {
  const kc: KubeConfigLike = {
    getCurrentCluster: () => ({ server: api.url }),
    applyToHTTPSOptions: async () => {
      throw new Error('exec plugin printed token=s3cr3t');
    },
  };
  await expect(kubeRequest(kc, { method: 'GET', path: PODS })).rejects.toThrow(new Error(`GET ${PODS}: the kubeconfig's credentials could not be applied (Error)`));
  expect(api.requests).toHaveLength(0);
});

test('connections use TCP keep-alive', async () => {
  const spy = jest.spyOn(net.Socket.prototype, 'setKeepAlive');
  try {
    await kubeRequest(api.kubeConfig(), { method: 'GET', path: PODS });
    expect(spy).toHaveBeenCalledWith(true, 30_000);
  } finally {
    spy.mockRestore();
  }
});
