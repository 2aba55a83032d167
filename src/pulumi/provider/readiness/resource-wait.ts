/**
 * One resource wait (Armada's `ResourceWait.wait`): LIST, then WATCH until every tracked object is
 * ready or the deadline passes, surviving dropped connections and expired resourceVersions.
 */
import { SchemaVersion } from '../../../model/spec';
import { CONTROLLER_TYPES, EffectiveWaitResource } from '../../../model/wait';
import { IdleConnectionError, KubernetesApiError, PendingWait, ReadinessTimeoutError, TransportError } from './errors';
import { KubeApiClient, ListResult, WatchEvent } from './kube-client';
import type { ProgressReporter } from './progress';
import { labelSelector } from './rules';
import { Backoff, JitterSource } from './backoff';
import { clampDelay, setLongTimeout } from './timers';
import { ReadinessTracker } from './tracker';

/** What every wait of one call shares. */
export interface WaitContext {
  readonly client: KubeApiClient;
  readonly namespace: string;
  readonly schemaVersion: SchemaVersion;
  readonly deadline: number;
  readonly waitAttempts: number;
  readonly waitAttemptSleepMs: number;
  readonly retryDelayMs: number;
  /** The longest pause the backoff grows to between reconnects, in milliseconds. */
  readonly maxRetryDelayMs: number;
  /** Where the backoff's jitter comes from (`Math.random` outside tests). */
  readonly jitter: JitterSource;
  /** Longest a single watch stream is kept before it is replaced by a new one from the same resourceVersion. */
  readonly watchMaxMs: number;
  readonly signal: AbortSignal;
  readonly progress: ProgressReporter;
}

/** How one resource wait ended (it throws when it did not). */
export interface ResourceWaitResult {
  readonly type: string;
  readonly labelSelector: string;
  /** `ready`, or `skipped`: not required and none found. */
  readonly outcome: 'ready' | 'skipped';
  /** Objects counted in the last pass (excluded ones are not counted). */
  readonly count: number;
  /** LIST-and-watch passes made: more than one only for v1 charts whose resources kept changing. */
  readonly passes: number;
}

const API_PATHS: Readonly<Record<string, (ns: string) => string>> = {
  pod: (ns) => `/api/v1/namespaces/${ns}/pods`,
  job: (ns) => `/apis/batch/v1/namespaces/${ns}/jobs`,
  deployment: (ns) => `/apis/apps/v1/namespaces/${ns}/deployments`,
  daemonset: (ns) => `/apis/apps/v1/namespaces/${ns}/daemonsets`,
  statefulset: (ns) => `/apis/apps/v1/namespaces/${ns}/statefulsets`,
};

/** Sentinel abort reason: the deadline, as opposed to the caller's cancellation. */
const DEADLINE = Symbol('deadline');

type PassResult = { readonly skipped: true } | { readonly skipped: false; readonly modified: number; readonly count: number };

/** One item of the resolved `wait.resources`, waited on until ready or the shared deadline. */
export class ResourceWait {
  private readonly selector: string;
  private readonly path: string;
  private readonly describe: string;
  private lastError: string | undefined;
  private listed = false;
  /** Reconnects in a row that found the server unwell: streams that ended at once, 410s, retried errors. */
  private readonly backoff: Backoff;

  constructor(
    private readonly ctx: WaitContext,
    private readonly resource: EffectiveWaitResource,
    private readonly after: readonly PendingWait[],
  ) {
    this.selector = labelSelector(resource.labels);
    this.path = API_PATHS[resource.type](encodeURIComponent(ctx.namespace));
    this.describe = `${resource.type} (namespace=${ctx.namespace}, labels=${this.selector})`;
    this.backoff = new Backoff(ctx.retryDelayMs, Math.max(ctx.retryDelayMs, ctx.maxRetryDelayMs), ctx.jitter);
  }

  public async run(): Promise<ResourceWaitResult> {
    const { progress } = this.ctx;
    const minReady = CONTROLLER_TYPES.includes(this.resource.type) ? `, min_ready=${this.resource.minReady}` : '';
    progress.milestone(
      `Waiting for ${this.resource.type}s (namespace=${this.ctx.namespace}, labels=${this.selector}, ` +
        `required=${this.resource.required}${minReady}) for ${Math.max(0, Math.round(this.remaining() / 1000))}s`,
    );
    if (this.selector === '') {
      progress.milestone(`No labels for the ${this.resource.type} wait: it waits on every ${this.resource.type} in namespace ${this.ctx.namespace}`);
    }

    // v1 repeats the pass until one sees no modification, in case resources appear after a watch
    // ends (Armada's `k8s_wait_attempts`); v2 makes one pass.
    const repeat = this.ctx.schemaVersion < SchemaVersion.V2;
    const attempts = this.ctx.waitAttempts;
    let successes = 0;
    let passes = 0;
    for (;;) {
      const pass = await this.pass();
      passes++;
      if (pass.skipped) {
        progress.milestone(`${this.describe}: none found, skipped (not required)`);
        return this.result('skipped', 0, passes);
      }
      successes = pass.modified > 0 ? 0 : successes + 1;
      if (!repeat || successes >= attempts) {
        progress.milestone(`${this.describe}: ${pass.count}/${pass.count} ready`);
        return this.result('ready', pass.count, passes);
      }
      progress.milestone(
        pass.modified > 0
          ? `${this.describe}: ready, but ${pass.modified} modified during the wait; checking again`
          : `${this.describe}: ready, ${successes} of ${attempts} unmodified passes; checking again`,
      );
      await this.sleep(this.ctx.waitAttemptSleepMs);
    }
  }

  private async pass(): Promise<PassResult> {
    const tracker = new ReadinessTracker(this.resource.type, this.resource, this.ctx.schemaVersion);
    this.listed = false;
    this.lastError = undefined;
    if (this.remaining() <= 0) throw this.timeout(tracker, { expiredBeforeStart: true });

    const first = await this.list(tracker);
    tracker.resync(first.items, false);
    if (first.items.length === 0 && !this.resource.required) return { skipped: true };
    let resourceVersion = first.resourceVersion;

    for (;;) {
      if (tracker.done) return { skipped: false, modified: tracker.modified.size, count: tracker.counts().total };
      this.report(tracker);
      if (this.remaining() <= 0) throw this.timeout(tracker);

      // Each stream is capped so that one the server or a proxy never ends is still replaced in
      // time; the server is asked to end it then too (`timeoutSeconds`).
      const streamMs = Math.min(this.remaining(), this.ctx.watchMaxMs);
      const started = Date.now();
      try {
        const end = await this.withDeadline((signal) =>
          this.ctx.client.watch(
            this.path,
            {
              labelSelector: this.selector || undefined,
              resourceVersion,
              allowWatchBookmarks: 'true',
              timeoutSeconds: String(Math.max(1, Math.ceil(streamMs / 1000))),
            },
            signal,
            streamMs,
            (event) => {
              this.lastError = undefined;
              resourceVersion = this.handle(event, tracker) ?? resourceVersion;
              if (tracker.done) return true;
              this.report(tracker);
              return false;
            },
          ),
        );
        if (end === 'stopped') continue;
        // A clean end is the server's watch timeout or a proxy closing idle streams: resume from
        // where the stream got to, at once after a stream that lived (half its allotted time, or
        // as long as the longest pause). One that ended at once, with events or without, is a
        // server or proxy that closes every stream: each reconnect then waits longer.
        if (Date.now() - started >= Math.min(streamMs / 2, this.ctx.maxRetryDelayMs)) this.backoff.reset();
        else await this.sleep(this.backoff.next());
      } catch (e) {
        if (e === DEADLINE) throw this.timeout(tracker);
        if (e instanceof KubernetesApiError && e.statusCode === 410) {
          // The resourceVersion is too old to watch from: what happened since is only known by
          // listing again. The first 410 after a healthy stream is the ordinary end of a long
          // watch, relisted at once; a server that answers every fresh list's version with 410
          // again is given longer and longer pauses.
          await this.sleep(this.backoff.next(true));
          resourceVersion = await this.relist(tracker);
          continue;
        }
        if (!isRetryable(e)) throw e;
        const message = (e as Error).message;
        this.lastError = message;
        await this.sleep(retryDelay(e, this.backoff.next()));
        // A silent stream may have swallowed events (a proxy that stopped forwarding), and an
        // ERROR event without a code says nothing of where the stream stood: only a LIST knows
        // the state now.
        if (e instanceof IdleConnectionError || (e instanceof KubernetesApiError && e.statusCode === undefined)) {
          resourceVersion = await this.relist(tracker);
          // The LIST worked, but the watch did not: that is what the deadline should report.
          this.lastError = message;
        }
      }
    }
  }

  private async relist(tracker: ReadinessTracker): Promise<string | undefined> {
    const relisted = await this.list(tracker);
    tracker.resync(relisted.items, true);
    return relisted.resourceVersion;
  }

  /** Applies one event; returns the resourceVersion to resume from, when the event carries one. */
  private handle(event: WatchEvent, tracker: ReadinessTracker): string | undefined {
    const type = String(event.type ?? '').toUpperCase();
    const obj = event.object ?? {};
    switch (type) {
      case 'ADDED':
      case 'MODIFIED':
      case 'DELETED':
        tracker.apply(type, obj);
        return obj.metadata?.resourceVersion;
      case 'BOOKMARK':
        return obj.metadata?.resourceVersion;
      case 'ERROR':
        // A 410 here means the same as HTTP 410 (relist); 5xx, 429, 401 and an event without a
        // code are retried; anything else fails the wait, as Armada's KubernetesErrorEventException does.
        throw new KubernetesApiError(
          `Got error event for ${this.resource.type}s (namespace=${this.ctx.namespace}): ${obj.message ?? JSON.stringify(obj)}`,
          typeof obj.code === 'number' ? obj.code : undefined,
          obj.reason,
        );
      default:
        throw new Error(`Got unknown watch event type (${event.type}) for ${this.resource.type}s in namespace ${this.ctx.namespace}`);
    }
  }

  /** LIST, retrying what is worth retrying until the deadline. */
  private async list(tracker: ReadinessTracker): Promise<ListResult> {
    for (;;) {
      if (this.remaining() <= 0) throw this.timeout(tracker);
      try {
        const result = await this.withDeadline((signal) =>
          this.ctx.client.list(this.path, { labelSelector: this.selector || undefined }, signal),
        );
        this.lastError = undefined;
        this.listed = true;
        return result;
      } catch (e) {
        if (e === DEADLINE) throw this.timeout(tracker);
        if (!isRetryable(e)) throw e;
        this.lastError = (e as Error).message;
        await this.sleep(retryDelay(e, this.backoff.next()));
      }
    }
  }

  /** Runs a request that is aborted at the deadline (rejecting with DEADLINE) or on the caller's cancellation. */
  private async withDeadline<T>(request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const outer = this.ctx.signal;
    outer.throwIfAborted();
    const controller = new AbortController();
    const cancel = () => controller.abort(outer.reason);
    outer.addEventListener('abort', cancel, { once: true });
    const cancelTimer = setLongTimeout(() => controller.abort(DEADLINE), this.remaining());
    try {
      return await request(controller.signal);
    } catch (e) {
      throw controller.signal.aborted ? controller.signal.reason : e;
    } finally {
      cancelTimer();
      outer.removeEventListener('abort', cancel);
    }
  }

  /** Sleeps `ms`, but not past the deadline; rejects on cancellation. */
  private sleep(ms: number): Promise<void> {
    const signal = this.ctx.signal;
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      }, clampDelay(Math.min(ms, this.remaining())));
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private report(tracker: ReadinessTracker): void {
    const { ready, total } = tracker.counts();
    this.ctx.progress.status(tracker.found ? `${this.describe}: ${ready}/${total} ready` : `${this.describe}: none found yet`);
  }

  private timeout(tracker: ReadinessTracker, opts: { expiredBeforeStart?: boolean | undefined } = {}): ReadinessTimeoutError {
    return new ReadinessTimeoutError({
      resourceType: this.resource.type,
      namespace: this.ctx.namespace,
      labelSelector: this.selector,
      noneFound: !tracker.found,
      expiredBeforeStart: opts.expiredBeforeStart === true,
      notReady: tracker.notReady(),
      notStarted: this.after,
      neverListed: !this.listed,
      lastError: this.lastError,
    });
  }

  private remaining(): number {
    return this.ctx.deadline - Date.now();
  }

  private result(outcome: 'ready' | 'skipped', count: number, passes: number): ResourceWaitResult {
    return { type: this.resource.type, labelSelector: this.selector, outcome, count, passes };
  }
}

/** Broken connections, server-side trouble and credentials being refreshed are retried until the deadline, as Armada retries its whole wait. */
function isRetryable(e: unknown): boolean {
  if (e instanceof TransportError) return true;
  return e instanceof KubernetesApiError && e.retryable;
}

/** The pause before a retry: the server's `Retry-After` when it asks for longer than the usual pause. */
function retryDelay(e: unknown, fallbackMs: number): number {
  const asked = e instanceof KubernetesApiError ? e.retryAfterMs : undefined;
  return asked !== undefined && asked > fallbackMs ? asked : fallbackMs;
}
