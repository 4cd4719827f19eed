import type { Static, TSchema } from '@sinclair/typebox';
import type { Permission } from '../access/roles.js';
import type { Caller } from '../shared/context.js';
import { actionErrors } from './responses.js';
import { principalOf, type Api } from './types.js';

/** What one action of a family documents: its OpenAPI names, body, answer and error statuses. */
export interface ActionDoc<B extends TSchema> {
  operationId: string;
  summary: string;
  description: string;
  body: B;
  response: TSchema;
  /** Error statuses beyond those every action has (e.g. 404 when it names a record). */
  errors: number[];
  /** The largest body, when larger than the server's default (a file's text). */
  bodyLimit?: number;
}

/**
 * The `action(name, doc, access, handle)` of a family of `POST /api/v1/actions/{name}` routes that share
 * their OpenAPI tags, the permission they need (none: open to every role) and a closing sentence about the family.
 */
export function actionFamily(app: Api, family: { tags: string[]; permission: Permission | null; about: string }) {
  return <B extends TSchema>(
    name: string,
    doc: ActionDoc<B>,
    access: 'read' | 'write',
    handle: (caller: Caller, body: Static<B>) => Promise<object>,
  ) =>
    app.post(
      `/api/v1/actions/${name}`,
      {
        config: { access, ...(family.permission && { permission: family.permission }) },
        ...(doc.bodyLimit && { bodyLimit: doc.bodyLimit }),
        schema: {
          operationId: doc.operationId,
          tags: family.tags,
          summary: doc.summary,
          description: `${doc.description} ${family.about}`,
          body: doc.body,
          response: { 200: doc.response, ...actionErrors(...doc.errors) },
        },
      },
      async (request) => handle(principalOf(request), request.body as Static<B>),
    );
}
