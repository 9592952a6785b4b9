import { createHash, timingSafeEqual } from 'node:crypto';
import type { AedesOptions, AuthenticateError } from 'aedes';
import { isDeviceId } from '../../../src/domain/mqtt/topics';
import type { BrokerCredentials, BrokerLog, EmbeddedBrokerOptions } from '../config';
import type { ClientLimits } from './limits';
import { printable, type Identity, type Refuse } from './refusals';
import type { ClientSessions } from './sessions';
import { mayPublish } from './topic-rights';

/** Connection refusal codes (MQTT 3.1.1 CONNACK return codes; aedes' AuthErrorCode is an ambient const enum). */
const IDENTIFIER_REJECTED = 2;
const SERVER_UNAVAILABLE = 3;
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

const digest = (value: string | Buffer): Buffer => createHash('sha256').update(value).digest();

const refusal = (message: string, returnCode: number): AuthenticateError =>
  Object.assign(new Error(message), { returnCode }) as AuthenticateError;

interface AuthenticationParts {
  log: BrokerLog;
  serverCredentials: BrokerCredentials;
  /** The device check: `EmbeddedBrokerOptions.authenticate`. */
  authenticateDevice: EmbeddedBrokerOptions['authenticate'];
  sessions: ClientSessions;
  refuse: Refuse;
  /** The sign-in throttling per address and username. */
  limits: Pick<ClientLimits, 'signInAllowed' | 'signInFailed' | 'signInSucceeded'>;
  /** How many connections one device may hold at once. */
  connectionsPerDevice: number;
}

/**
 * Who may connect: the server's own client with its generated password (compared in constant time), or a
 * device with its Id as username and its secret as password; then its client id and its last will.
 * Refused: badCredentials (return code 4), clientIdDenied (2), a last will outside the device's topics
 * (publishDenied, 5); a failing device check answers "server unavailable" (3), and so do an address and
 * username that failed too often lately (signInThrottled, before any check: limits.ts) and a device that
 * holds `connectionsPerDevice` connections already (deviceConnectionLimit: the newest is refused, so a
 * stolen secret cannot push the chamber itself off).
 */
export const createAuthentication = ({
  log,
  serverCredentials,
  authenticateDevice,
  sessions,
  refuse,
  limits,
  connectionsPerDevice,
}: AuthenticationParts): Required<Pick<AedesOptions, 'preConnect' | 'authenticate'>> => {
  const serverUsername = serverCredentials.username;
  const serverPasswordDigest = digest(serverCredentials.password);

  const isServer = (username: string | undefined, password: Buffer | undefined): boolean => {
    if (username !== serverUsername || password === undefined) return false;
    return timingSafeEqual(digest(password), serverPasswordDigest);
  };

  const preConnect: AedesOptions['preConnect'] = (client, packet, done) => {
    sessions.connecting(client, packet);
    done(null, true);
  };

  const authenticate: AedesOptions['authenticate'] = (client, rawUsername, password, done) => {
    const username: string | undefined = rawUsername;
    const clientId = client.id;
    const admit = (identity: Identity, name: string) => {
      const problem = sessions.clientIdProblem(clientId, name, identity);
      if (problem !== null) {
        refuse('clientIdDenied', { username: printable(name), clientId: printable(clientId) }, `mqtt: client id refused (${problem})`);
        done(refusal('identifier rejected', IDENTIFIER_REJECTED), null);
        return;
      }
      if (identity.kind === 'device' && sessions.connectionsOf(identity.deviceId, clientId) >= connectionsPerDevice) {
        refuse('deviceConnectionLimit', { deviceId: identity.deviceId, clientId: printable(clientId), limit: connectionsPerDevice }, 'mqtt: too many connections for this device');
        done(refusal('server unavailable', SERVER_UNAVAILABLE), null);
        return;
      }
      const will = sessions.takeWill(client);
      if (will !== undefined && !mayPublish(identity, will)) {
        refuse(
          'publishDenied',
          { deviceId: printable(name), clientId: printable(clientId), topic: printable(will.topic), retain: will.retain, will: true },
          'mqtt: last will refused',
        );
        done(refusal('not authorized', NOT_AUTHORIZED), null);
        return;
      }
      limits.signInSucceeded(client, name);
      sessions.admit(client, identity, name);
      log.debug({ username: name, clientId: printable(clientId) }, 'mqtt: client connected');
      done(null, true);
    };
    const badCredentials = (why: string) => {
      limits.signInFailed(client, username ?? '');
      refuse('badCredentials', { username: printable(username), clientId: printable(clientId) }, `mqtt: connection refused (${why})`);
      done(refusal('bad username or password', BAD_USERNAME_OR_PASSWORD), null);
    };

    if (!limits.signInAllowed(client, username ?? '')) {
      refuse('signInThrottled', { username: printable(username), clientId: printable(clientId) }, 'mqtt: connection refused unchecked (too many failed sign-ins)');
      done(refusal('server unavailable', SERVER_UNAVAILABLE), null);
      return;
    }
    if (username === serverUsername) {
      if (isServer(username, password)) admit({ kind: 'server' }, serverUsername);
      else badCredentials('wrong server password');
      return;
    }
    if (!isDeviceId(username)) return badCredentials(username === undefined ? 'no username' : 'username is not a device Id');
    if (password === undefined || password.length === 0) return badCredentials('no password');
    authenticateDevice(username, password.toString('utf8')).then(
      (ok) => (ok ? admit({ kind: 'device', deviceId: username }, username) : badCredentials('unknown device or wrong secret')),
      (error: unknown) => {
        log.error({ err: error, deviceId: username }, 'mqtt: cannot check device credentials');
        done(refusal('server unavailable', SERVER_UNAVAILABLE), null);
      },
    );
  };

  return { preConnect, authenticate };
};
