import { Type } from '@sinclair/typebox';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  GetSequenceBody,
  SaveSequenceBody,
  SequenceSchema,
  StopSequenceEnrolmentBody,
  TriggerSequenceBody,
} from './sequence.schema.js';
import type { SequenceService } from './sequence.service.js';

const tags = ['Sequences and flows'];

/** trigger-sequence and get-sequence (spec §4), save-sequence to create or change one, stop-sequence-enrolment. */
export function registerSequenceRoutes(app: Api, sequences: SequenceService): void {
  app.addSchema(SequenceSchema);
  const sequence = Type.Ref(SequenceSchema);

  app.post(
    '/api/v1/actions/trigger-sequence',
    {
      config: { access: 'write', permission: 'automation' },
      schema: {
        operationId: 'triggerSequence',
        tags,
        summary: 'Enrol a contact in a sequence',
        description:
          'Enrols the contact (by `contact_id` or `phone`; an unknown phone becomes a new contact) and schedules the first step. `context` is readable by the steps as `{{context.KEY}}`. A contact is in a sequence at most once at a time: while an enrolment is running the answer is 409 `already_enrolled` with its `enrolment_id`. Returns the enrolment as new-sequence-triggered shows it.',
        body: TriggerSequenceBody,
        response: { 200: Type.Ref('SequenceTriggeredRecord'), ...actionErrors(404) },
      },
    },
    async (request) => sequences.trigger(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/get-sequence',
    {
      config: { access: 'read', permission: 'automation' },
      schema: {
        operationId: 'getSequence',
        tags,
        summary: 'Fetch a sequence with its steps and enrolment counts',
        body: GetSequenceBody,
        response: { 200: sequence, ...actionErrors(404) },
      },
    },
    async (request) => sequences.get(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/save-sequence',
    {
      config: { access: 'write', permission: 'automation' },
      schema: {
        operationId: 'saveSequence',
        tags,
        summary: 'Create a sequence, or replace the steps of one',
        description:
          'Without `id` a new sequence is created (names are unique per workspace: 409 if taken); with `id` its name and definition are replaced — running enrolments continue with the new steps from their current position. Templates and flows the steps name must belong to the workspace; problems name the JSON Pointer of the bad field.',
        body: SaveSequenceBody,
        response: { 200: sequence, ...actionErrors(404) },
      },
    },
    async (request) => sequences.save(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/stop-sequence-enrolment',
    {
      config: { access: 'write', permission: 'automation' },
      schema: {
        operationId: 'stopSequenceEnrolment',
        tags,
        summary: 'Take a contact out of a sequence',
        description:
          'Ends an enrolment that is still running: it becomes `exited` (reason `stopped`) and no further step is sent. 409 when it has already ended. The contact can be enrolled again afterwards. Returns the enrolment as new-sequence-triggered shows it.',
        body: StopSequenceEnrolmentBody,
        response: { 200: Type.Ref('SequenceTriggeredRecord'), ...actionErrors(404) },
      },
    },
    async (request) => sequences.stop(principalOf(request), request.body),
  );
}
