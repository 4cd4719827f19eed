import type { Permission } from '../access/roles.js';
import type { Access, Api } from './types.js';

/** A route as registered: who may call it (`access`) and what their role must grant (`permission`). */
export interface RouteRule {
  method: string;
  url: string;
  access: Access | undefined;
  permission: Permission | undefined;
}

const recorded = new WeakMap<Api, RouteRule[]>();

/**
 * Records every route's access and permission as it is registered (must run before the routes),
 * so a test can hold the role table against every route the server has.
 */
export function recordRouteRules(app: Api): void {
  const rules: RouteRule[] = [];
  recorded.set(app, rules);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      rules.push({ method, url: route.url, access: route.config?.access, permission: route.config?.permission });
    }
  });
}

/** The routes recorded on this server. */
export function routeRulesOf(app: Api): readonly RouteRule[] {
  return recorded.get(app) ?? [];
}
