import { SchemaVersion } from '../../../src/model/spec';
import { ReadinessTracker } from '../../../src/pulumi/provider/readiness/tracker';
import { owner, pod } from './fixtures';

function tracker(version = SchemaVersion.V2): ReadinessTracker {
  return new ReadinessTracker('pod', {}, version);
}

describe('ReadinessTracker', () => {
  it('is done when something was found and every included object is ready', () => {
    const t = tracker();
    t.resync([pod('a', { rv: '1' }), pod('b', { ready: false, rv: '1' })], false);
    expect(t.done).toBe(false);
    expect(t.counts()).toEqual({ ready: 1, total: 2 });
    t.apply('MODIFIED', pod('b', { rv: '2' }));
    expect(t.done).toBe(true);
    expect([...t.modified]).toEqual(['b']);
  });

  it('is not done with nothing found, even after a DELETED event for an unknown object', () => {
    const t = tracker();
    t.resync([], false);
    t.apply('DELETED', pod('ghost'));
    expect(t.found).toBe(false);
    expect(t.done).toBe(false);
  });

  it('is done when every tracked object was deleted, as in Armada', () => {
    const t = tracker();
    t.resync([pod('a', { ready: false })], false);
    t.apply('DELETED', pod('a', { ready: false }));
    expect(t.done).toBe(true);
  });

  it('counts excluded list items as found, but does not track them', () => {
    const t = tracker(SchemaVersion.V1);
    t.resync([pod('init', { ready: false, owners: [owner('Job')] })], false);
    expect(t.found).toBe(true);
    expect(t.counts().total).toBe(0);
    expect(t.done).toBe(true);
  });

  it('does not count excluded ADDED events as found', () => {
    const t = tracker();
    t.resync([], false);
    t.apply('ADDED', pod('api-x', { owners: [owner('ReplicaSet')] }));
    expect(t.found).toBe(false);
  });

  it('stops tracking an object once it becomes excluded', () => {
    const t = tracker();
    t.resync([pod('a', { ready: false }), pod('b')], false);
    t.apply('MODIFIED', pod('a', { ready: false, annotations: { 'helm.sh/hook': 'test' } }));
    expect(t.counts()).toEqual({ ready: 1, total: 1 });
    expect(t.done).toBe(true);
  });

  it('counts objects changed across a relist as modified', () => {
    const t = tracker();
    t.resync([pod('a', { rv: '1', ready: false }), pod('b', { rv: '1' })], false);
    t.resync([pod('a', { rv: '5' }), pod('b', { rv: '1' }), pod('c', { rv: '6' })], true);
    expect([...t.modified]).toEqual(['a']);
    expect(t.done).toBe(true);
  });

  it('lists not-ready objects by name with their last message', () => {
    const t = tracker();
    t.resync([pod('z', { ready: false }), pod('a', { ready: false }), pod('m')], false);
    expect(t.notReady()).toEqual([
      { name: 'a', message: 'Waiting for pod a to be ready...' },
      { name: 'z', message: 'Waiting for pod z to be ready...' },
    ]);
  });
});
