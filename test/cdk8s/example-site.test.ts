import { defineSite } from '../../examples/site';
import { SchemaVersion } from '../../src';
import { OperatorApi } from '../../src/cdk8s';
import { armadaSchemaErrors, crdErrors } from '../helpers/schemas';
import { synthCrs, synthDocuments } from '../helpers/synth';

describe('example site', () => {
  test('airship v1 ArmadaCharts: one per deployed chart, in plan order, valid against the CRD', () => {
    const { objects } = synthCrs(defineSite(), { syncWaves: true });
    expect(objects.map((o) => o.metadata.name)).toEqual([
      'airship-ingress-kube-system',
      'airship-ingress-openstack',
      'airship-mariadb',
      'airship-memcached',
      'airship-rabbitmq',
      'airship-keystone',
      'airship-glance',
      'airship-nova',
      'airship-neutron',
      'airship-openvswitch',
      'airship-libvirt',
    ]);
    expect(objects.map((o) => o.metadata.annotations['armada-cdk.io/step'])).toEqual(['0', '0', '1', '2', '3', '4', '5', '5', '5', '5', '5']);
    expect(objects.map((o) => o.metadata.annotations['argocd.argoproj.io/sync-wave'])).toEqual(['0', '0', '1', '2', '3', '4', '5', '5', '5', '5', '5']);
    for (const o of objects) {
      expect(o.metadata.namespace).toBe(o.data.namespace);
      expect(o.metadata.labels['armada.airshipit.org/release-name']).toBe(o.metadata.name);
      expect(crdErrors('airship-v1', o)).toEqual([]);
    }
  });

  test('classic documents (v1 and v2) validate against Armada schemas', () => {
    for (const version of [SchemaVersion.V1, SchemaVersion.V2]) {
      const { objects } = synthDocuments(defineSite(), { version });
      expect(objects).toHaveLength(12 + 4 + 1);
      for (const doc of objects) expect([doc.metadata.name, armadaSchemaErrors(doc)]).toEqual([doc.metadata.name, []]);
    }
  });

  test('keleustes output reports the namespaces it cannot express', () => {
    expect(() => synthCrs(defineSite(), { api: OperatorApi.KELEUSTES_V1ALPHA1 })).toThrow(
      /chart group "ingress" has charts in namespaces "kube-system", "openstack"/,
    );
  });
});
