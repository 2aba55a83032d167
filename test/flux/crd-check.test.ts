/** The strict Flux CRD check the other Flux tests rely on: it must reject what the API server would reject or prune. */
import { closeSchema, evalCel, fluxCrdErrors } from '../helpers/flux-crds';

const hr = (spec: Record<string, unknown>) => ({ apiVersion: 'helm.toolkit.fluxcd.io/v2', kind: 'HelmRelease', metadata: { name: 'x', namespace: 'flux-system' }, spec });
const chart = { spec: { chart: 'a', sourceRef: { kind: 'HelmRepository', name: 'r' } } };

describe('strict Flux CRD validation (test helper)', () => {
  test('accepts a minimal HelmRelease, with free-form values', () => {
    expect(fluxCrdErrors(hr({ interval: '10m', chart, values: { any: { thing: [1, null] } } }))).toEqual([]);
  });

  test('rejects unknown fields (which the API server would prune), missing required fields, bad patterns and a wrong apiVersion', () => {
    expect(fluxCrdErrors(hr({ interval: '10m', chart, install: { createNamespaces: true } }))).toEqual(['/spec/install must NOT have additional properties (createNamespaces)']);
    expect(fluxCrdErrors(hr({ chart }))).toEqual(["/spec must have required property 'interval'"]);
    expect(fluxCrdErrors(hr({ interval: '10 minutes', chart }))).toEqual(['/spec/interval must match pattern "^([0-9]+(\\.[0-9]+)?(ms|s|m|h))+$"']);
    expect(fluxCrdErrors({ ...hr({ interval: '1m', chart }), apiVersion: 'helm.toolkit.fluxcd.io/v2beta2' })).toEqual(['/apiVersion is "helm.toolkit.fluxcd.io/v2beta2", the served version is helm.toolkit.fluxcd.io/v2']);
    expect(fluxCrdErrors({ apiVersion: 'source.toolkit.fluxcd.io/v1', kind: 'GitRepository', metadata: { name: 'g' }, spec: { interval: '1m', url: 'git://e.org/r' } })).toEqual([
      '/spec/url must match pattern "^(http|https|ssh)://.*$"',
    ]);
  });

  test('checks the CEL rule "either chart or chartRef"', () => {
    const rule = 'either chart or chartRef must be set (CEL: (has(self.chart) && !has(self.chartRef)) || (!has(self.chart) && has(self.chartRef)))';
    expect(fluxCrdErrors(hr({ interval: '1m' }))).toEqual([`/spec ${rule}`]);
    expect(fluxCrdErrors(hr({ interval: '1m', chart, chartRef: { kind: 'OCIRepository', name: 'o' } }))).toEqual([`/spec ${rule}`]);
    expect(fluxCrdErrors(hr({ interval: '1m', chartRef: { kind: 'OCIRepository', name: 'o' } }))).toEqual([]);
  });

  test('the CEL subset: comparisons, negation, precedence; anything else throws', () => {
    expect(evalCel("!has(self.a) || self.a != 'x'", { a: 'x' })).toBe(false);
    expect(evalCel("!has(self.a) || self.a != 'x'", {})).toBe(true);
    expect(evalCel("has(self.a.b) && (self.a.b == 'y')", { a: { b: 'y' } })).toBe(true);
    expect(() => evalCel('self.a.size() > 1', { a: [] })).toThrow('CEL rule outside the supported subset: self.a.size() > 1');
  });

  test('a v1 Namespace is checked against the Kubernetes API\'s types: unknown fields, name, annotations, apiVersion', () => {
    const ns = (metadata: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ apiVersion: 'v1', kind: 'Namespace', metadata, ...extra });
    expect(fluxCrdErrors(ns({ name: 'openstack', annotations: { 'kustomize.toolkit.fluxcd.io/prune': 'disabled' } }))).toEqual([]);
    expect(fluxCrdErrors(ns({ name: 'openstack', annotation: {} }, { spec: { finalizer: [] } }))).toEqual(['/metadata/annotation is not a field of v1 Namespace', '/spec/finalizer is not a field of v1 Namespace']);
    expect(fluxCrdErrors(ns({ name: 'Open_Stack', namespace: 'x', annotations: { 'a/b/c': 'x', n: 1 } }))).toEqual([
      '/metadata/name "Open_Stack" is not a DNS-1123 label',
      '/metadata/namespace is set on a cluster-scoped object',
      '/metadata/annotations key "a/b/c": its name is not a qualified name',
      '/metadata/annotations/n is not a string',
    ]);
    expect(fluxCrdErrors({ ...ns({ name: 'a' }), apiVersion: 'core/v1' })).toEqual(['/apiVersion is "core/v1", Namespace is served as v1']);
  });

  test('closes objects except maps and preserve-unknown-fields', () => {
    expect(closeSchema({ type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } }, v: { 'x-kubernetes-preserve-unknown-fields': true, type: 'object' } } })).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: { m: { type: 'object', additionalProperties: { type: 'string' } }, v: { 'x-kubernetes-preserve-unknown-fields': true, type: 'object' } },
    });
  });
});
