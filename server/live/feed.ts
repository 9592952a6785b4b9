import fp from 'fastify-plugin';
import type { LiveEvent } from '../../src/domain/live';

/**
 * The live feed of one server process: services publish changes (ingestion, device commands,
 * device edits) and the live stream subscribes. On its own a feed delivers locally; once the MQTT
 * plugin sets a relay, `publish` goes through the broker (`oxygen-live/{Id}`) so that every server
 * process, this one included, gets the event back and hands it to `deliver`.
 */
type LiveListener = (event: LiveEvent) => void;

export interface LiveFeed {
  /** Announces a change to every server process's subscribers. */
  publish(event: LiveEvent): void;
  /** Hands an event to this process's subscribers (the relay's inbound side). */
  deliver(event: LiveEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: LiveListener): () => void;
  /** Routes `publish` through `relay` (undefined: deliver locally again). */
  setRelay(relay: LiveListener | undefined): void;
}

export const createLiveFeed = (): LiveFeed => {
  const listeners = new Set<LiveListener>();
  let relay: LiveListener | undefined;
  const deliver = (event: LiveEvent): void => {
    for (const listener of listeners) listener(event);
  };
  return {
    publish: (event) => (relay === undefined ? deliver(event) : relay(event)),
    deliver,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setRelay(next) {
      relay = next;
    },
  };
};

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's live feed (ctx.live is the same object). */
    liveFeed: LiveFeed;
  }
}

/** Decorates `liveFeed`: delivering locally until the MQTT plugin sets its relay. */
export const liveFeedPlugin = fp(
  async (app) => {
    app.decorate('liveFeed', createLiveFeed());
  },
  { name: 'oxygen-live-feed', fastify: '5.x' },
);
