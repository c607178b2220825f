// What the gateway knows of each capability's replicas: every replica behind an upstream address
// is asked grpc.health.v1 Check on its own, every half second, with a deadline. A replica that
// fails twice in a row (refused, NOT_SERVING, or silent past the deadline: a frozen or lost
// process, whose connection stays open so the calls' channel never notices) is down until it
// answers SERVING again. A capability with every replica down is unavailable: /readyz says so,
// and new calls are refused at once (503) instead of waiting on the call deadline. Calls in
// flight are ended only where the replica fell silent (one that answers NOT_SERVING is draining
// and finishes them; a refused connection has failed them already): on a silent replica when
// grpc-js can tell which replica a call is on (once the service has answered), and every call of
// the capability once all of its replicas are silent.
import { Logger } from '@nestjs/common';
import {
  CLIENT_CHANNEL_OPTIONS,
  checkHealth,
  createHealthClient,
  qualifiedServiceName,
  type Capability,
  type HealthAnswer,
  type HealthClient,
} from '@tessera/contracts';
import { resolveUpstreamPeers, type UpstreamPeer } from './upstream-peers.resolve';

/**
 * How often each replica is asked, and how long an answer may take: long enough that a live
 * service on a busy machine (or a gateway whose event loop stalled) is not taken for a frozen
 * one, since every request to a capability found down is refused.
 */
export const HEALTH_INTERVAL_MS = 500;
export const HEALTH_DEADLINE_MS = 2000;
/** Failed checks in a row before a replica counts as down (one slow answer is not enough). */
export const HEALTH_FAILURES_TO_DOWN = 2;
/** How often the replicas behind a DNS name are looked up again. */
const RESOLVE_INTERVAL_MS = 5000;

type PeerState = 'unknown' | 'up' | 'down';

/** `null`: every replica of the capability fell silent; else the silent replica's peer name. */
export type LostListener = (peer: string | null) => void;

class ReplicaHealth {
  state: PeerState = 'unknown';
  /** Down because it stopped answering at all (not because it said it does not serve). */
  silent = false;
  private failures = 0;
  private checking: Promise<void> | null = null;
  private readonly client: HealthClient;

  constructor(
    readonly replica: UpstreamPeer,
    private readonly service: string,
  ) {
    this.client = createHealthClient(replica.target, CLIENT_CHANNEL_OPTIONS);
  }

  /** Asks once (joining a check already under way). */
  async check(): Promise<void> {
    this.checking ??= checkHealth(this.client, this.service, HEALTH_DEADLINE_MS).then((answer) => {
      this.checking = null;
      this.record(answer);
    });
    await this.checking;
  }

  record(answer: HealthAnswer): void {
    const serving = answer === 'serving';
    this.failures = serving ? 0 : this.failures + 1;
    if (serving) this.state = 'up';
    else if (this.failures >= HEALTH_FAILURES_TO_DOWN) this.state = 'down';
    this.silent = this.state === 'down' && answer === 'silent';
  }

  close(): void {
    this.client.close();
  }
}

class CapabilityHealth {
  private replicas = new Map<string, ReplicaHealth>();
  private resolvedAt = 0;
  private resolving: Promise<void> | null = null;
  private closed = false;
  private resolveFailed = false;
  readonly lost = new Set<LostListener>();

  constructor(
    private readonly address: string,
    private readonly service: string,
  ) {}

  /** False once every replica is down (or its name never resolved); true while unknown. */
  get available(): boolean {
    if (this.resolveFailed) return false;
    if (this.replicas.size === 0) return true; // not looked up yet
    return [...this.replicas.values()].some((replica) => replica.state !== 'down');
  }

  /** Asks every replica once; true when one of them serves. */
  async check(): Promise<boolean> {
    await this.resolve();
    const wasSilent = new Set([...this.replicas.values()].filter((replica) => replica.silent));
    const allWereSilent = this.allSilent();
    await Promise.all([...this.replicas.values()].map((replica) => replica.check()));
    for (const replica of this.replicas.values()) {
      if (replica.silent && !wasSilent.has(replica) && replica.replica.peer) {
        this.tell(replica.replica.peer);
      }
    }
    if (!allWereSilent && this.allSilent()) this.tell(null);
    return [...this.replicas.values()].some((replica) => replica.state === 'up');
  }

  close(): void {
    this.closed = true;
    for (const replica of this.replicas.values()) replica.close();
    this.replicas.clear();
  }

  private allSilent(): boolean {
    return this.replicas.size > 0 && [...this.replicas.values()].every((replica) => replica.silent);
  }

  /** Looks the replicas up again when due; concurrent checks share one look-up. */
  private async resolve(): Promise<void> {
    if (Date.now() - this.resolvedAt < RESOLVE_INTERVAL_MS && this.replicas.size > 0) return;
    this.resolving ??= resolveUpstreamPeers(this.address)
      .catch((): UpstreamPeer[] => [])
      .then((found) => {
        this.resolving = null;
        this.update(found);
      });
    await this.resolving;
  }

  private update(found: UpstreamPeer[]): void {
    if (this.closed) return;
    // A name that stops resolving (a headless Service with no ready pod, or DNS failing for a
    // moment) keeps the replicas it had: their own checks tell whether they still serve. With
    // none known, calls would fail at once too. Looked up again at the next round.
    this.resolveFailed = found.length === 0 && this.replicas.size === 0;
    if (found.length === 0) return;
    this.resolvedAt = Date.now();
    const next = new Map<string, ReplicaHealth>();
    for (const replica of found) {
      next.set(
        replica.target,
        this.replicas.get(replica.target) ?? new ReplicaHealth(replica, this.service),
      );
    }
    for (const [target, replica] of this.replicas) if (!next.has(target)) replica.close();
    this.replicas = next;
  }

  private tell(peer: string | null): void {
    for (const listener of [...this.lost]) listener(peer);
  }
}

export class UpstreamHealth {
  private readonly capabilities = new Map<Capability, CapabilityHealth>();
  private timer: NodeJS.Timeout | null = null;
  private readonly logger = new Logger('upstreams');

  constructor(upstreams: Partial<Record<Capability, string>>) {
    for (const [capability, address] of Object.entries(upstreams) as [Capability, string][]) {
      this.capabilities.set(
        capability,
        new CapabilityHealth(address, qualifiedServiceName(capability)),
      );
    }
  }

  /** Asks every replica of the capability now; true when one serves. */
  check(capability: Capability): Promise<boolean> {
    return this.capabilities.get(capability)?.check() ?? Promise.resolve(false);
  }

  /** True once the capability is known to have no serving replica (false while unknown). */
  unavailable(capability: Capability): boolean {
    const health = this.capabilities.get(capability);
    return health !== undefined && !health.available;
  }

  /** Calls `listener` each time a replica of the capability goes down; returns the unsubscribe. */
  onLost(capability: Capability, listener: LostListener): () => void {
    const lost = this.capabilities.get(capability)?.lost;
    lost?.add(listener);
    return () => lost?.delete(listener);
  }

  /** Checks every capability every HEALTH_INTERVAL_MS until `stop()`. */
  start(): void {
    if (this.timer) return;
    const round = async () => {
      await Promise.all(
        [...this.capabilities].map(async ([capability, health]) => {
          const wasAvailable = health.available;
          await health.check();
          if (wasAvailable !== health.available) {
            this.logger.warn(
              `${capability}: ${health.available ? 'serving again' : 'no replica serving'}`,
            );
          }
        }),
      );
      if (this.timer) this.timer = setTimeout(() => void round(), HEALTH_INTERVAL_MS).unref();
    };
    this.timer = setTimeout(() => void round(), 0).unref();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const health of this.capabilities.values()) health.close();
  }
}
