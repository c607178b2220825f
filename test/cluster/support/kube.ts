// A small client of the Kubernetes API for the cluster tests: plain HTTPS with the admin client
// certificate of the test control plane's kubeconfig (no client library; kubectl need not be
// installed). Only what the tests read and write.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Agent, fetch } from 'undici';
import { parse } from 'yaml';

export interface Meta {
  name: string;
  namespace?: string;
  uid?: string;
  generation?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: { kind: string; name: string }[];
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: Meta;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests read kind-specific fields
  spec?: any;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  status?: any;
  data?: Record<string, string>;
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

interface KubeconfigFile {
  clusters: { cluster: { server: string; 'certificate-authority': string } }[];
  users: { user: { 'client-certificate': string; 'client-key': string } }[];
}

interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

export class KubeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class Kube {
  private readonly server: string;
  private readonly agent: Agent;
  private readonly resources = new Map<string, Promise<ApiResource[]>>();

  constructor(kubeconfigPath: string) {
    const config = parse(readFileSync(kubeconfigPath, 'utf8')) as KubeconfigFile;
    const file = (p: string) => readFileSync(resolve(dirname(kubeconfigPath), p));
    const { cluster } = config.clusters[0];
    const { user } = config.users[0];
    this.server = cluster.server;
    this.agent = new Agent({
      connect: {
        ca: file(cluster['certificate-authority']),
        cert: file(user['client-certificate']),
        key: file(user['client-key']),
      },
    });
  }

  async close(): Promise<void> {
    await this.agent.close();
  }

  async request<T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T> {
    const response = await fetch(this.server + path, {
      method,
      dispatcher: this.agent,
      headers: body === undefined ? {} : { 'content-type': contentType ?? 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await response.text();
    if (!response.ok) {
      throw new KubeApiError(response.status, `${method} ${path}: ${response.status} ${text}`);
    }
    return JSON.parse(text) as T;
  }

  get<T = KubeObject>(path: string): Promise<T> {
    return this.request<T>('GET', path);
  }

  async list<T = KubeObject>(path: string, labelSelector?: string): Promise<T[]> {
    const query = labelSelector ? `?labelSelector=${encodeURIComponent(labelSelector)}` : '';
    return (await this.get<{ items: T[] }>(path + query)).items;
  }

  create<T = KubeObject>(path: string, body: unknown): Promise<T> {
    return this.request<T>('POST', path, body);
  }

  /** A JSON merge patch (RFC 7386). */
  patch<T = KubeObject>(path: string, body: unknown): Promise<T> {
    return this.request<T>('PATCH', path, body, 'application/merge-patch+json');
  }

  async delete(path: string): Promise<void> {
    try {
      await this.request('DELETE', path);
    } catch (error) {
      if (!(error instanceof KubeApiError && error.status === 404)) throw error;
    }
  }

  /**
   * The URL path of an object, found through API discovery (so any kind the chart renders,
   * not only those the tests know, can be read back).
   */
  async pathOf(object: KubeObject, defaultNamespace: string): Promise<string> {
    const { apiVersion, kind, metadata } = object;
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    let discovery = this.resources.get(base);
    if (!discovery) {
      discovery = this.get<{ resources: ApiResource[] }>(base).then((r) => r.resources);
      this.resources.set(base, discovery);
    }
    const resource = (await discovery).find((r) => r.kind === kind && !r.name.includes('/'));
    if (!resource) throw new Error(`the API server does not serve ${kind} in ${apiVersion}`);
    const namespace = metadata.namespace ?? defaultNamespace;
    const scope = resource.namespaced ? `/namespaces/${namespace}` : '';
    return `${base}${scope}/${resource.name}/${metadata.name}`;
  }
}

/** A label selector in the API's query syntax (matchLabels and matchExpressions). */
export function selectorQuery(selector: LabelSelector): string {
  const labels = Object.entries(selector.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  const expressions = (selector.matchExpressions ?? []).map(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return `${key} in (${values.join(',')})`;
      case 'NotIn':
        return `${key} notin (${values.join(',')})`;
      case 'Exists':
        return key;
      case 'DoesNotExist':
        return `!${key}`;
      default:
        throw new Error(`unknown selector operator ${operator}`);
    }
  });
  return [...labels, ...expressions].join(',');
}

/** Polls `read` until it returns a value other than undefined; fails after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  read: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await read();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`${what}: not within ${timeoutMs} ms${lastError ? ` (${lastError})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
