/**
 * The state of one pass of one resource wait (Armada's `_watch_resource_completions`): which
 * objects are tracked, whether each is ready, and which were modified. Pure: the loop feeds it
 * LIST results and watch events.
 */
import type { SchemaVersion } from '../../../model/spec';
import type { NotReadyResource } from './errors';
import type { KubeObject } from './objects';
import { ControllerRuleOptions, excludeReason, Readiness, resourceReadiness } from './rules';

interface Tracked {
  readonly readiness: Readiness;
  readonly resourceVersion?: string | undefined;
}

/** Readiness of the objects one pass tracks, by name (Armada keys its `ready` dict by name too). */
export class ReadinessTracker {
  /**
   * Whether anything was found. As in Armada, a LIST with any item counts, even if every item is
   * excluded (the wait then passes at once), and so does any included ADDED or MODIFIED event.
   */
  public found = false;
  /** Names that got a MODIFIED event (or changed across a relist): v1 repeats its wait while any did. */
  public readonly modified = new Set<string>();
  private readonly tracked = new Map<string, Tracked>();

  constructor(
    private readonly type: string,
    private readonly rule: ControllerRuleOptions,
    private readonly schemaVersion: SchemaVersion,
  ) {}

  /**
   * Replaces the state with a LIST result. After a relist (`countChanges`), objects whose
   * resourceVersion moved count as modified, since their MODIFIED events were missed.
   */
  public resync(items: readonly KubeObject[], countChanges: boolean): void {
    const before = new Map(this.tracked);
    this.tracked.clear();
    if (items.length > 0) this.found = true;
    for (const item of items) {
      const name = item.metadata?.name ?? '';
      if (this.excluded(item)) continue;
      this.track(name, item);
      const previous = before.get(name);
      if (countChanges && previous && previous.resourceVersion !== item.metadata?.resourceVersion) this.modified.add(name);
    }
  }

  /** Applies an ADDED, MODIFIED or DELETED event. */
  public apply(eventType: 'ADDED' | 'MODIFIED' | 'DELETED', obj: KubeObject): void {
    const name = obj.metadata?.name ?? '';
    if (eventType === 'DELETED') {
      this.tracked.delete(name);
      return;
    }
    if (this.excluded(obj)) {
      // Armada skips the event and keeps the old verdict; an object that became excluded (say,
      // evicted) would then block the wait forever. A relist would drop it, so drop it here too.
      this.tracked.delete(name);
      return;
    }
    this.found = true;
    this.track(name, obj);
    if (eventType === 'MODIFIED') this.modified.add(name);
  }

  /** Done when something was found and every tracked object is ready (none tracked counts as all ready, as in Armada). */
  public get done(): boolean {
    return this.found && [...this.tracked.values()].every((t) => t.readiness.ready);
  }

  public counts(): { readonly ready: number; readonly total: number } {
    let ready = 0;
    for (const t of this.tracked.values()) if (t.readiness.ready) ready++;
    return { ready, total: this.tracked.size };
  }

  /** The tracked objects that are not ready, by name, with their last readiness message. */
  public notReady(): NotReadyResource[] {
    return [...this.tracked.entries()]
      .filter(([, t]) => !t.readiness.ready)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([name, t]) => ({ name, message: t.readiness.message, ...(t.readiness.unlikely ? { unlikely: t.readiness.unlikely } : {}) }));
  }

  private excluded(obj: KubeObject): boolean {
    return excludeReason(this.type, obj, this.schemaVersion) !== undefined;
  }

  private track(name: string, obj: KubeObject): void {
    this.tracked.set(name, { readiness: resourceReadiness(this.type, obj, this.rule), resourceVersion: obj.metadata?.resourceVersion });
  }
}
