import type { Kysely } from 'kysely';
import { SECRET_MASK, type ChannelType } from '../../src/domain/notifications';
import type { WireRecord } from '../../src/resources/model';
import { notificationChannelsConfig } from '../../src/resources/notification-channels/config';
import type { DB } from '../db/schema';
import { badInput } from '../http/envelope';
import { asRecords, renderList } from '../lists/answer';
import { viewerSource } from '../lists/compiled';
import { column, defineListing } from '../lists/listing';
import type { ServedResource } from '../resources/served';
import type { Viewer } from '../scope/service';

/**
 * `/api/v1/notification-channels` (docs/notifications.md, "Channels"): the super administrator's channels,
 * through the derived writes. A saved URL or secret is never read back in full: its column holds its mask
 * (the URL's origin, or nothing of the secret, then SECRET_MASK) and the value itself lives in `*_value`,
 * which nothing lists. A form sends the mask back unchanged, which keeps the saved value.
 */
const channelListing = defineListing(notificationChannelsConfig, {
  id: column('c.id', 'number'),
  name: column('c.name', 'text'),
  type: column('c.type', 'text'),
  enabled: column('c.enabled', 'flag'),
  host: column('c.host', 'text', true),
  port: column('c.port', 'number', true),
  tls: column('c.tls', 'flag'),
  user: column('c.username', 'text', true),
  from: column('c.sender', 'text', true),
  url: column('c.url', 'text', true),
  secret: column('c.secret', 'text', true),
});

const everyChannel = (db: Kysely<DB>, _viewer: Viewer) => db.selectFrom('notification_channels as c');

const masked = (value: string): boolean => value.includes(SECRET_MASK);

/** What a saved value reads as: a URL's origin, nothing of a secret. The mask of a mask is itself. */
const maskOf = (field: 'url' | 'secret', value: string | null): string | null => {
  if (value === null || value === '' || masked(value)) return value;
  if (field === 'secret') return SECRET_MASK;
  return URL.canParse(value) ? `${new URL(value).origin}/${SECRET_MASK}` : SECRET_MASK;
};

const maskRecord = (record: WireRecord): WireRecord => ({
  ...record,
  url: maskOf('url', (record.url as string | null | undefined) ?? null),
  secret: maskOf('secret', (record.secret as string | null | undefined) ?? null),
});

const isHttpUrl = (value: string): boolean => URL.canParse(value) && ['http:', 'https:'].includes(new URL(value).protocol);
const EMAIL = /^[^\s@<>]+@[^\s@<>]+$/;

/**
 * Keeps each secret field's value in its `*_value` column and its mask in its own (a mask sent back keeps the
 * value saved), then checks what the channel's type needs, naming the field.
 */
const keepSecrets = async (db: Kysely<DB>, id: number): Promise<void> => {
  const row = await db.selectFrom('notification_channels').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const next = (field: 'url' | 'secret', saved: string | null): string | null => {
    const sent = row[field];
    if (sent === null || sent === '') return null;
    return masked(sent) ? saved : sent;
  };
  const url = next('url', row.url_value);
  const secret = next('secret', row.secret_value);
  await db
    .updateTable('notification_channels')
    .set({ url_value: url, url: maskOf('url', url), secret_value: secret, secret: maskOf('secret', secret) })
    .where('id', '=', id)
    .execute();
  const type = row.type as ChannelType;
  const required = (field: string, value: unknown) => {
    if (value === null || value === undefined || value === '') throw badInput('notify.channel.required', { field });
  };
  if (type === 'email') {
    required('host', row.host);
    required('port', row.port);
    required('from', row.sender);
    if (!EMAIL.test(row.sender ?? '')) throw badInput('notify.channel.email', { field: 'from' });
    return;
  }
  required('url', url);
  if (!isHttpUrl(url ?? '')) throw badInput('notify.channel.url', { field: 'url' });
  if (type === 'webhook') required('secret', secret);
};

export const notificationChannelsResource: ServedResource = {
  config: notificationChannelsConfig,
  listing: channelListing,
  list: async (ctx, viewer, body) => {
    const answer = asRecords(await renderList(viewerSource(ctx.db, viewer, everyChannel), channelListing(), body));
    return { ...answer, list: answer.list.map(maskRecord) };
  },
  writes: {
    table: 'notification_channels',
    rules: async (db, { verb, id }) => {
      if (verb !== 'delete') await keepSecrets(db, Number(id));
    },
  },
};
