import type { FastifyPluginAsync } from 'fastify';
import { accountsConfig } from '../../src/resources/accounts/config';
import { registerListRoute } from '../lists/route';
import { accountListing, listAccounts } from './list';

/** Account calls of the upstream contract, relative to API_PREFIX: `POST /get_Admins`. */
export const accountRoutes: FastifyPluginAsync = async (app) => {
  registerListRoute(app, { config: accountsConfig, listing: accountListing, list: listAccounts });
};
