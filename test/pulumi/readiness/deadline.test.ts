import { SAME_RUN_GRACE_MS, waitDeadline } from '../../../src/pulumi/provider/readiness/deadline';

const NOW = Date.parse('2026-12-03T12:00:00Z');
const base = { now: NOW, timeoutSeconds: 600, sharesDeadline: true };

describe('waitDeadline', () => {
  it('shares the release deadline while it is ahead', () => {
    expect(waitDeadline({ ...base, deployStart: NOW - 100_000, runStart: NOW - 3_600_000 })).toBe(NOW + 500_000);
  });

  it('keeps the passed deadline when this run deployed the release and the install used the whole budget: the wait fails at once', () => {
    // Installed at the start of this run, 11 minutes ago, with a 10 minute budget.
    expect(waitDeadline({ ...base, deployStart: NOW - 660_000, runStart: NOW - 700_000 })).toBe(NOW - 60_000);
  });

  it('keeps the passed deadline just after it ran out, even when the process started after the install', () => {
    expect(waitDeadline({ ...base, deployStart: NOW - 600_000 - SAME_RUN_GRACE_MS, runStart: NOW - 1000 })).toBe(NOW - SAME_RUN_GRACE_MS);
  });

  it('gives the whole budget from now to a release an earlier run deployed (a re-check, a retry after a failed wait)', () => {
    expect(waitDeadline({ ...base, deployStart: NOW - 600_000 - SAME_RUN_GRACE_MS - 1, runStart: NOW - 1000 })).toBe(NOW + 600_000);
    expect(waitDeadline({ ...base, deployStart: NOW - 86_400_000, runStart: NOW - 1000 })).toBe(NOW + 600_000);
  });

  it('gives the whole budget from now to a repeat step, and when the start is unknown', () => {
    expect(waitDeadline({ ...base, sharesDeadline: false, deployStart: NOW - 100_000 })).toBe(NOW + 600_000);
    expect(waitDeadline({ ...base })).toBe(NOW + 600_000);
  });

  it('takes the process start as the run start by default', () => {
    const now = Date.now();
    // Deployed before this process started and long past its budget: an earlier run.
    expect(waitDeadline({ now, timeoutSeconds: 60, sharesDeadline: true, deployStart: performance.timeOrigin - 3_600_000 })).toBe(now + 60_000);
    // Deployed since this process started: this run, so the passed deadline stands.
    expect(waitDeadline({ now: now + 3_600_000, timeoutSeconds: 60, sharesDeadline: true, deployStart: now })).toBe(now + 60_000);
  });
});
