import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ServerApi } from './api';

/**
 * Device secrets (docs/simulator.md, "Credentials"): the server shows a secret only when it registers
 * or rotates a device, so the simulator keeps the ones it obtained in DATA_DIR/simulator/secrets.json
 * (mode 0600, per server), uses a saved one while the broker accepts it, and rotates when there is
 * none or the broker refuses it.
 */

export const secretsFile = (dataDir: string): string => path.join(dataDir, 'simulator', 'secrets.json');

/** `{ "<server URL>": { "<device Id>": "<secret>" } }` */
const fileSchema = z.record(z.string(), z.record(z.string(), z.string()));
type SecretsFile = z.infer<typeof fileSchema>;

export class SecretStore {
  private constructor(
    private readonly file: string,
    private readonly server: string,
    private readonly all: SecretsFile,
  ) {}

  /** The saved secrets for `server`; a missing file is empty, an unreadable one is an error naming it. */
  static load(file: string, server: string): SecretStore {
    if (!existsSync(file)) return new SecretStore(file, server, {});
    const parsed = fileSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!parsed.success) throw new Error(`${file} is not a secrets file the simulator wrote: remove it to start afresh`);
    return new SecretStore(file, server, parsed.data);
  }

  get(deviceId: string): string | undefined {
    return this.all[this.server]?.[deviceId];
  }

  /** Saves a secret at once (a rotation has already invalidated the previous one). */
  set(deviceId: string, secret: string): void {
    this.all[this.server] = { ...this.all[this.server], [deviceId]: secret };
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    // Written beside and renamed over, so a crash never leaves half a file; 0600 as it holds credentials.
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.all, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}

export class Credentials {
  constructor(
    private readonly store: SecretStore,
    private readonly api: Pick<ServerApi, 'rotateSecret'>,
  ) {}

  /** The saved secret, or a new one by rotation. */
  async secretFor(deviceId: string): Promise<string> {
    return this.store.get(deviceId) ?? this.renew(deviceId);
  }

  /** Rotates the device's secret and saves it. */
  async renew(deviceId: string): Promise<string> {
    const secret = await this.api.rotateSecret(deviceId);
    this.store.set(deviceId, secret);
    return secret;
  }

  /** Keeps a secret obtained at registration. */
  save(deviceId: string, secret: string): void {
    this.store.set(deviceId, secret);
  }
}
