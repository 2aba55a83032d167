import { breakdownRule, covers, describePermission, ruleCovers } from '../../../src/cdk8s/operator/rbac-covers';

const uncovered = (held: Parameters<typeof covers>[0], wanted: Parameters<typeof covers>[1]) => covers(held, wanted).uncovered.map(describePermission);

describe('RBAC rule coverage (Kubernetes\' escalation check)', () => {
  test('a rule breaks down into one permission per group, resource, verb and name, and per URL and verb', () => {
    expect(breakdownRule({ apiGroups: ['', 'apps'], resources: ['pods'], verbs: ['get', 'list'] }).map(describePermission)).toEqual(['get pods', 'list pods', 'get apps/pods', 'list apps/pods']);
    expect(breakdownRule({ apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'], verbs: ['get'] }).map(describePermission)).toEqual(['get configmaps[a]', 'get configmaps[b]']);
    expect(breakdownRule({ nonResourceURLs: ['/healthz', '/metrics'], verbs: ['get'] }).map(describePermission)).toEqual(['get /healthz', 'get /metrics']);
    // No API group: nothing to hold, as in Kubernetes.
    expect(breakdownRule({ resources: ['pods'], verbs: ['get'] })).toEqual([]);
  });

  test('exact groups, resources and verbs; every missing permission is listed in order', () => {
    const held = [{ apiGroups: [''], resources: ['pods', 'services'], verbs: ['get', 'list', 'watch'] }];
    expect(covers(held, [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }])).toEqual({ covered: true, uncovered: [] });
    expect(uncovered(held, [{ apiGroups: ['', 'extensions', 'batch', 'apps'], resources: ['services', 'endpoints'], verbs: ['get', 'list'] }])).toEqual([
      'get endpoints',
      'list endpoints',
      'get extensions/services',
      'list extensions/services',
      'get extensions/endpoints',
      'list extensions/endpoints',
      'get batch/services',
      'list batch/services',
      'get batch/endpoints',
      'list batch/endpoints',
      'get apps/services',
      'list apps/services',
      'get apps/endpoints',
      'list apps/endpoints',
    ]);
    // One held rule must cover each permission: verbs of two rules do not add up per permission,
    // but each broken-down permission needs one rule only.
    expect(covers([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { apiGroups: [''], resources: ['pods'], verbs: ['list'] }], [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]).covered).toBe(true);
  });

  test('wildcards: verbs, groups and resources', () => {
    expect(covers([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], [{ apiGroups: ['x.io'], resources: ['things/status'], verbs: ['escalate'] }]).covered).toBe(true);
    expect(covers([{ apiGroups: ['*'], resources: ['pods'], verbs: ['get'] }], [{ apiGroups: ['apps', ''], resources: ['pods'], verbs: ['get'] }]).covered).toBe(true);
    expect(uncovered([{ apiGroups: [''], resources: ['*'], verbs: ['get'] }], [{ apiGroups: ['', 'apps'], resources: ['pods'], verbs: ['get', 'list'] }])).toEqual(['list pods', 'get apps/pods', 'list apps/pods']);
    // `*` is a wildcard only when held; wanted, it is one more name that must be held literally.
    expect(uncovered([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }], [{ apiGroups: [''], resources: ['pods'], verbs: ['*'] }])).toEqual(['* pods']);
  });

  test('subresources: exact, or */sub; a resource never covers its subresources', () => {
    const wanted = [{ apiGroups: [''], resources: ['pods/log'], verbs: ['get'] }];
    expect(covers([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], wanted).covered).toBe(false);
    expect(covers([{ apiGroups: [''], resources: ['pods/log'], verbs: ['get'] }], wanted).covered).toBe(true);
    expect(covers([{ apiGroups: [''], resources: ['*/log'], verbs: ['get'] }], wanted).covered).toBe(true);
    expect(covers([{ apiGroups: [''], resources: ['*/status'], verbs: ['get'] }], wanted).covered).toBe(false);
    // */log does not cover the resource itself.
    expect(covers([{ apiGroups: [''], resources: ['*/log'], verbs: ['get'] }], [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]).covered).toBe(false);
    // A nested subresource matches on everything after the first slash.
    expect(ruleCovers({ apiGroups: ['x'], resources: ['*/a/b'], verbs: ['get'] }, { apiGroups: ['x'], resources: ['r/a/b'], verbs: ['get'] })).toBe(true);
  });

  test('resourceNames: a named rule covers only its names; an unnamed one covers all', () => {
    const named = [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['lock'], verbs: ['get', 'update'] }];
    expect(covers(named, [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['lock'], verbs: ['update'] }]).covered).toBe(true);
    expect(uncovered(named, [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['lock', 'other'], verbs: ['get'] }])).toEqual(['get configmaps[other]']);
    expect(uncovered(named, [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }])).toEqual(['get configmaps']);
    expect(covers([{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }], [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['any'], verbs: ['get'] }]).covered).toBe(true);
  });

  test('nonResourceURLs: exact, or a prefix ending in *; resource rules never cover URLs', () => {
    expect(covers([{ nonResourceURLs: ['/metrics'], verbs: ['get'] }], [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]).covered).toBe(true);
    expect(covers([{ nonResourceURLs: ['/api/*'], verbs: ['get'] }], [{ nonResourceURLs: ['/api/v1', '/api/'], verbs: ['get'] }]).covered).toBe(true);
    expect(uncovered([{ nonResourceURLs: ['/api/*'], verbs: ['get'] }], [{ nonResourceURLs: ['/apis'], verbs: ['get', 'post'] }])).toEqual(['get /apis', 'post /apis']);
    expect(covers([{ nonResourceURLs: ['*'], verbs: ['*'] }], [{ nonResourceURLs: ['/anything'], verbs: ['get'] }]).covered).toBe(true);
    expect(covers([{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }]).covered).toBe(false);
    // A URL rule covers no resource permission either.
    expect(covers([{ nonResourceURLs: ['*'], verbs: ['*'] }], [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]).covered).toBe(false);
  });
});
