/**
 * Every route the server has either declares the role permission it needs or is one of the few
 * every role may call, named here with the reason. A new route without a permission fails this
 * test until someone decides which it is.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { routeRulesOf } from '../src/http/route-rules.js';
import { ENGINE, startServer } from './server.js';

const server = await startServer();

/** Routes open to every role of the workspace, and why. */
const OPEN_TO_EVERY_ROLE: Record<string, string> = {
  'GET /api/v1/me': 'who the caller is',
  'GET /api/zapier/me': 'who the caller is (the legacy path)',
  'POST /mcp': 'each tool call is checked by its own route; tools/list shows only what the role may call',
  'GET /api/dashboard/session': 'the signed-in user and their permissions',
  'POST /api/dashboard/logout': 'one’s own session',
  'POST /api/dashboard/sessions/end-others': 'one’s own sessions',
  'PUT /api/dashboard/password': 'one’s own password',
  'PUT /api/dashboard/account': 'one’s own name',
  'GET /api/dashboard/tokens': 'one’s own tokens (revoking another’s is checked in the token service)',
  'POST /api/dashboard/tokens': 'a token acts with its creator’s role, so creating one grants nothing',
  'DELETE /api/dashboard/tokens/:id': 'one’s own; another’s needs revoke_any_token (checked with the token’s owner)',
  'GET /api/dashboard/workspace': 'read-only settings; changing them is manage_workspace',
  'GET /api/dashboard/team': 'who is in the team (to assign, to mention)',
  'GET /api/dashboard/channel': 'read-only; the verify token only for manage_channel',
  'POST /api/v1/actions/list-channels': 'which number a message goes out on',
  'POST /api/v1/actions/get-contact': 'reading contacts is open',
  'POST /api/v1/actions/search-contacts': 'reading contacts is open',
  'GET /api/dashboard/contacts': 'reading contacts is open',
  'GET /api/dashboard/contacts/:id/activity': 'reading contacts is open; its messages only for conversations',
  'GET /api/dashboard/phone-countries': 'a pick-list',
  'POST /api/v1/actions/list-tags': 'reading tags is open',
  'POST /api/v1/actions/get-template': 'reading templates is open',
  'POST /api/v1/actions/list-templates': 'reading templates is open',
  'GET /api/dashboard/templates/:id': 'reading templates is open',
  'POST /api/v1/actions/list-whatsapp-flows': 'reading WhatsApp Flows is open, as templates’: every sender picks one',
  'POST /api/v1/actions/get-whatsapp-flow': 'reading WhatsApp Flows is open, as templates’: every sender picks one',
  'POST /api/v1/actions/list-whatsapp-flow-alerts':
    'what Meta said of a Flow is read with the Flow, open as its page is',
  'GET /api/v1/dropdowns/templates': 'a pick-list of names',
  'GET /api/v1/dropdowns/template-variables': 'a pick-list of names',
  'GET /api/v1/dropdowns/sequences': 'a pick-list of names',
  'GET /api/v1/dropdowns/flows': 'a pick-list of names',
  'POST /api/v1/actions/get-opt-out-settings': 'the opt-out keywords, read-only',
  'POST /api/v1/actions/upload-media': 'stores a file; sending it needs the sending action’s permission',
  'POST /api/v1/actions/list-workspace-events': 'what Meta reported about the number: no customer content',
  'POST /api/v1/actions/list-teams': 'who is in which team (to assign, to route); changing teams is routing',
  'POST /api/v1/actions/get-availability': 'one’s own availability',
  'POST /api/v1/actions/get-routing-settings': 'read-only; changing them is routing',
  'POST /api/v1/actions/list-knowledge-sources': 'reading knowledge is open: an agent checks what the assistant knows',
  'POST /api/v1/actions/get-knowledge-source': 'reading knowledge is open: an agent checks what the assistant knows',
  'POST /api/v1/actions/get-knowledge-settings': 'read-only; switching sources is automation',
  'POST /api/v1/actions/search-knowledge':
    'reading knowledge is open: the inbox’s “Try a question” and the assistant’s citations',
  'POST /api/v1/actions/get-assistant-settings':
    'read-only, so agents know when the AI answers; changing it is automation',
  'GET /api/dashboard/notification-preferences': 'one’s own notification settings',
  'PUT /api/dashboard/notification-preferences': 'one’s own notification settings',
};

describe(`route permissions (${ENGINE})`, () => {
  test('route-permissions › every route that needs a caller declares a permission or is open to every role by name', () => {
    const undeclared = routeRulesOf(server.app.server)
      .filter((rule) => rule.access !== 'public' && rule.permission === undefined)
      .filter(
        (rule) => rule.access !== undefined || rule.url.startsWith('/api/v1/') || rule.url.startsWith('/api/zapier/'),
      )
      .map((rule) => `${rule.method} ${rule.url}`)
      .filter((route) => !(route in OPEN_TO_EVERY_ROLE));
    assert.deepEqual(undeclared, [], 'declare config.permission, or name the route in OPEN_TO_EVERY_ROLE with why');
  });

  test('route-permissions › every route named open exists and declares no permission', () => {
    const open = new Set(
      routeRulesOf(server.app.server)
        .filter((rule) => rule.permission === undefined)
        .map((rule) => `${rule.method} ${rule.url}`),
    );
    assert.deepEqual(
      Object.keys(OPEN_TO_EVERY_ROLE).filter((route) => !open.has(route)),
      [],
    );
  });
});
