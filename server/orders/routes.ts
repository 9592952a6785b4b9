import type { FastifyPluginAsync } from 'fastify';
import { ordersConfig } from '../../src/resources/orders/config';
import { renderCachedList } from '../lists/engine';
import { registerListRoute } from '../lists/route';
import { listOrders, orderListing } from './list';

/** Order calls of the upstream contract, relative to API_PREFIX: `POST /list/get_Records`. */
export const orderRoutes: FastifyPluginAsync = async (app) => {
  registerListRoute(app, { config: ordersConfig, listing: orderListing, list: (ctx, viewer, body) => listOrders(ctx, viewer, body, renderCachedList) });
};
