import type { AedesOptions, Subscription } from 'aedes';
import { deviceMayPublish, deviceMaySubscribe, parseTopic } from '../../../src/domain/mqtt/topics';
import { printable, who, type Identity, type Refuse } from './refusals';
import type { ClientSessions } from './sessions';

const SYS_PREFIX = '$SYS';
const SHARE_PREFIX = '$share/';

/**
 * Whether this client may publish there (a publish or a last will): the server anywhere but under `$SYS`;
 * a device only on its own telemetry/event/status/ack topics, and retained only on status.
 */
export const mayPublish = (identity: Identity | undefined, packet: { topic: string; retain: boolean }): boolean => {
  if (packet.topic.startsWith(SYS_PREFIX)) return false;
  if (identity === undefined) return false;
  if (identity.kind === 'server') return true;
  if (!deviceMayPublish(identity.deviceId, packet.topic)) return false;
  return !packet.retain || parseTopic(packet.topic)?.kind === 'status';
};

/** `$share/<group>/<filter>` → `<filter>`; anything else unchanged; a malformed share (no group or filter) → null. */
const unshare = (filter: string): string | null => {
  if (!filter.startsWith(SHARE_PREFIX)) return filter;
  const rest = filter.slice(SHARE_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0 || slash === rest.length - 1) return null;
  return rest.slice(slash + 1);
};

/**
 * What a client may receive: a device subscribes only to its own cmd topic (else SUBACK 0x80,
 * subscribeDenied; it stays connected). The server may subscribe to anything, and its
 * `$share/<group>/<filter>` subscriptions are served as plain `<filter>` ones (aedes has no shared
 * subscriptions; one embedded broker serves one server process, so the group has one member anyway).
 */
export const createSubscriptionRights = (
  { identities }: ClientSessions,
  refuse: Refuse,
): Required<Pick<AedesOptions, 'authorizeForward' | 'authorizeSubscribe'>> => ({
  // Defence in depth: whatever a session holds (queued or restored), a device receives only its own cmd topic.
  authorizeForward(client, packet) {
    const identity = identities.get(client);
    if (identity?.kind === 'server') return packet;
    return identity?.kind === 'device' && deviceMaySubscribe(identity.deviceId, packet.topic) ? packet : null;
  },

  authorizeSubscribe(client, subscription: Subscription, done) {
    const identity = identities.get(client);
    if (identity?.kind === 'server') {
      const topic = unshare(subscription.topic);
      if (topic !== null) {
        subscription.topic = topic;
        done(null, subscription);
        return;
      }
    } else if (identity?.kind === 'device' && deviceMaySubscribe(identity.deviceId, subscription.topic)) {
      done(null, subscription);
      return;
    }
    refuse('subscribeDenied', { deviceId: who(identity), clientId: printable(client.id), topic: printable(subscription.topic) }, 'mqtt: subscription refused');
    done(null, null);
  },
});
