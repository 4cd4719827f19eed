import type { Kysely } from 'kysely';
import type { RenderScope } from '../automation/render.js';
import { contactRepository } from '../contacts/index.js';
import type { Database } from '../db/schema.js';
import { flowSendRepository } from '../messages/index.js';
import type { Clock } from '../shared/clock.js';
import { toStoredTimestamp } from '../shared/time.js';
import { flowsEndpointRepository } from './flows-endpoint.repository.js';
import type { RelayOutcome } from './flows-endpoint.relay.js';
import { answerFromScreens, type ScreenAnswer } from './flows-endpoint.screens.js';

/** A request's Flow as Parley answers it: its number, workspace and screen table. */
interface ParleyTarget {
  channelId: string;
  workspaceId: string;
  rows: ScreenAnswer[];
}

/** Who a token names nobody (a preview in WhatsApp Manager, a Flow sent elsewhere): placeholders read empty. */
const NOBODY: RenderScope['contact'] = { name: null, phone: '', email: null, custom_attributes: '{}' };

/**
 * Answers a number's screens from its screen table (decision 0156): the contact the `flow_token` names and
 * what they entered on earlier screens (kept per token until the Flow finishes) fill each row's data.
 */
export function createParleyAnswers(db: Kysely<Database>, clock: Clock) {
  const repository = flowsEndpointRepository(db);

  async function contactOf(workspaceId: string, flowToken: string): Promise<RenderScope['contact']> {
    const send = flowToken === '' ? undefined : await flowSendRepository(db).find(workspaceId, flowToken);
    const contactId = send?.contact_id;
    const contact = contactId && (await contactRepository(db).findById(workspaceId, contactId));
    return contact ? { ...contact } : NOBODY;
  }

  return async function answer(target: ParleyTarget, request: Record<string, unknown>): Promise<RelayOutcome> {
    const flowToken = typeof request.flow_token === 'string' ? request.flow_token : '';
    const action = String(request.action);
    const screen = typeof request.screen === 'string' && request.screen !== '' ? request.screen : null;
    const kept = flowToken === '' ? undefined : await repository.fieldsOf(target.channelId, flowToken);
    const submitted = action === 'data_exchange' ? objectOf(request.data) : {};
    const entered = { ...objectOf(kept && JSON.parse(kept)), ...submitted };
    const scope = { contact: await contactOf(target.workspaceId, flowToken), context: entered };
    const outcome = answerFromScreens(target.rows, { action, screen, flowToken }, scope);
    if ('missing' in outcome)
      return { outcome: 'failed', reason: `the screen table has no row for ${outcome.missing}` };
    if (outcome.finished) await repository.forgetFields(target.channelId, flowToken);
    else if (flowToken !== '' && Object.keys(submitted).length > 0) {
      await repository.keepFields(target.channelId, flowToken, JSON.stringify(entered), toStoredTimestamp(clock.now()));
    }
    return { outcome: 'answered', answer: outcome.answer };
  };
}

function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
