// Whether the Hub (or the mirror at HF_ENDPOINT) answers at all, asked once with a short timeout
// before anything is pulled. Where the Hub is blocked, a connection can hang until the full
// request timeout; a launcher that has somewhere else to get models from wants to know in seconds.
import { describeNetworkFailure } from './hub-failure.messages';
import { HubFetchSession, type HubFetchSettings } from './hub-fetch.session';
import type { HubSource } from './model-spec';

export type HubReachability =
  { readonly reachable: true } | { readonly reachable: false; readonly reason: string };

/**
 * Asks for the revision of `source`: any answer, an error status included, means the Hub is
 * there (what a missing repository or a refused token means is the pull's to say).
 */
export async function probeHubReachability(
  endpoint: string,
  source: HubSource,
  settings: HubFetchSettings,
): Promise<HubReachability> {
  const session = new HubFetchSession(settings, undefined);
  const url = `${endpoint}/api/models/${source.repo}/revision/${encodeURIComponent(source.revision)}`;
  try {
    const response = await session.fetch(url);
    await response.body?.cancel();
    return { reachable: true };
  } catch (error) {
    const reason = session.watchdog.fired
      ? `no answer within ${session.watchdog.limitSeconds} s`
      : describeNetworkFailure(error);
    return { reachable: false, reason };
  } finally {
    session.stop();
  }
}
