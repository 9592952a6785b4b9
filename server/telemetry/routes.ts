import type { FastifyPluginAsync } from 'fastify';
import { stateRecordsConfig } from '../../src/resources/state-records/config';
import { renderCachedList } from '../lists/engine';
import { registerListRoute } from '../lists/route';
import { listStateRecords, stateRecordListing } from './list';

/** State record calls of the upstream contract, relative to API_PREFIX: `POST /list/get_OCState`. */
export const telemetryRoutes: FastifyPluginAsync = async (app) => {
  registerListRoute(app, { config: stateRecordsConfig, listing: stateRecordListing, list: (ctx, viewer, body) => listStateRecords(ctx, viewer, body, renderCachedList) });
};
