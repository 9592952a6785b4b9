import type { FastifyPluginAsync } from 'fastify';
import { devicesConfig } from '../../src/resources/devices/config';
import { registerListRoute } from '../lists/route';
import { deviceListing, listDevices } from './list';

/** Device calls of the upstream contract, relative to API_PREFIX: `POST /list/get_OCProperty`. */
export const deviceRoutes: FastifyPluginAsync = async (app) => {
  registerListRoute(app, { config: devicesConfig, listing: deviceListing, list: listDevices });
};
