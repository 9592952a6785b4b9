import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { CMD_ID_MAX, CMD_ID_PATTERN } from '../../src/domain/mqtt/payloads';
import { deviceCommandsConfig } from '../../src/resources/devices/commandLog';
import type { WireRecord } from '../../src/resources/model';
import { requireAccess, signedIn } from '../auth/guard';
import { notFound } from '../http/envelope';
import type { ZodTypeProvider } from '../http/validation';
import { restPath } from '../rest/list';
import { contentRange, restListQuery } from '../rest/query';
import { commandListing, listCommands } from './list';

const commandParams = z.strictObject({ id: z.string().min(1).max(CMD_ID_MAX).regex(CMD_ID_PATTERN) });

/**
 * The commands sent to chambers, read-only under /api/v1 (docs/commands.md), in ra-data-simple-rest's
 * shape like the audit log (server/rest/list.ts, whose registerRestList names records by a numeric id;
 * a command is named by its cmdId):
 *   GET /device-commands?sort=…&range=…&filter=…  the commands of devices the caller sees, Content-Range
 *   GET /device-commands/:cmdId                   one command; 404 also when its device is out of scope
 * Policy 'device-commands' list/show (every role); the scope is listCommands'.
 */
export const commandRoutes: FastifyPluginAsync = async (instance) => {
  commandListing();
  const app = instance.withTypeProvider<ZodTypeProvider>();
  const path = restPath(deviceCommandsConfig);
  const resource = deviceCommandsConfig.name;

  app.get(
    path,
    { schema: { querystring: restListQuery(deviceCommandsConfig) }, onRequest: requireAccess({ resource, action: 'list' }) },
    async (request, reply): Promise<WireRecord[]> => {
      const body = request.query;
      const { list, total } = await listCommands(app.ctx, signedIn(request), body);
      void reply.header('Content-Range', contentRange(path.slice(1), body, list.length, total));
      return list;
    },
  );

  app.get(
    `${path}/:id`,
    { schema: { params: commandParams }, onRequest: requireAccess({ resource, action: 'show' }) },
    async (request): Promise<WireRecord> => {
      const { list } = await listCommands(app.ctx, signedIn(request), { current: 1, pageSize: 1, filter: { id: [request.params.id] } });
      const [record] = list;
      if (record === undefined) throw notFound();
      return record;
    },
  );
};
