import fp from 'fastify-plugin';

/**
 * Sign-in state on requests: `request.account` is null until a guard of ./guard resolves the bearer
 * token. Tokens are resolved only on guarded routes, so static files cost no database work.
 */
export const authPlugin = fp(
  async (app) => {
    app.decorateRequest('account', null);
  },
  { name: 'oxygen-auth', fastify: '5.x', dependencies: ['oxygen-context'] },
);
