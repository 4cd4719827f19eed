import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import { BusinessHoursSchema, UpdateBusinessHoursBody } from './business-hours.schema.js';
import type { BusinessHoursService } from './business-hours.service.js';

const tags = ['Workspace'];
const hours = Type.Ref(BusinessHoursSchema);

/** The workspace's business hours and away reply (also the dashboard's Settings → Business hours). */
export function registerBusinessHoursRoutes(app: Api, businessHours: BusinessHoursService): void {
  app.addSchema(BusinessHoursSchema);

  app.post(
    '/api/v1/actions/get-business-hours',
    {
      config: { access: 'read', permission: 'manage_workspace' },
      schema: {
        operationId: 'getBusinessHours',
        tags,
        summary: 'The business hours, holidays and away reply',
        description: 'Until saved: switched off, weekdays 09:00–17:00 in the workspace time zone.',
        body: Type.Object({}),
        response: { 200: hours, ...actionErrors() },
      },
    },
    async (request) => businessHours.get(principalOf(request)),
  );

  app.post(
    '/api/v1/actions/update-business-hours',
    {
      config: { access: 'write', permission: 'manage_workspace' },
      schema: {
        operationId: 'updateBusinessHours',
        tags,
        summary: 'Set the business hours, holidays and away reply',
        description:
          'Replaces the whole setting. While enabled, a customer who writes outside the hours (or on a holiday) gets the away message once per conversation opening — a free-form service reply from Parley inside the 24-hour window their message opened, never a template; contacts who opted out get none.',
        body: UpdateBusinessHoursBody,
        response: { 200: hours, ...actionErrors() },
      },
    },
    async (request) => businessHours.update(principalOf(request), request.body),
  );
}
