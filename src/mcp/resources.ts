import {
  ErrorCode,
  McpError,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import type { RestClient, RestResponse } from './rest-client.js';

/** MCP's "resource not found" error code (the specification's, not in the SDK's enum). */
const RESOURCE_NOT_FOUND = -32002;
const JSON_TYPE = 'application/json';

const WORKSPACE: Resource = {
  uri: 'parley://workspace',
  name: 'workspace',
  title: 'Workspace',
  description: 'The token’s user and workspace: name, poll interval, rate limit, token scope (as get_me returns it)',
  mimeType: JSON_TYPE,
};
const TEMPLATES: Resource = {
  uri: 'parley://templates',
  name: 'templates',
  title: 'Message templates',
  description: 'Every WhatsApp message template of the workspace, with its translations and their approval status',
  mimeType: JSON_TYPE,
};
const TEMPLATE_URI = /^parley:\/\/templates\/([^/]+)$/;

/** Read-only resources that are not a fixed list: one per template. */
export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: 'parley://templates/{id}',
    name: 'template',
    title: 'Message template',
    description:
      'One template by id: body, header, buttons, placeholders and translations (as get_template returns it)',
    mimeType: JSON_TYPE,
  },
];

/** The workspace, the template list, and each template (named from the template pick-list). */
export async function listResources(rest: RestClient): Promise<Resource[]> {
  const choices = succeeded(await rest.request('GET', '/api/v1/dropdowns/templates')) as {
    id: string;
    label: string;
  }[];
  const templates = choices.map(({ id, label }): Resource => ({
    uri: `parley://templates/${id}`,
    name: label,
    mimeType: JSON_TYPE,
  }));
  return [WORKSPACE, TEMPLATES, ...templates];
}

/** A resource's JSON, read through the same REST operations the tools use. */
export async function readResource(rest: RestClient, uri: string): Promise<ReadResourceResult> {
  const templateId = TEMPLATE_URI.exec(uri)?.[1];
  let response: RestResponse;
  if (uri === WORKSPACE.uri) response = await rest.request('GET', '/api/v1/me');
  else if (uri === TEMPLATES.uri) response = await rest.request('POST', '/api/v1/actions/list-templates');
  else if (templateId) {
    response = await rest.request('POST', '/api/v1/actions/get-template', { body: { template_id: templateId } });
  } else throw new McpError(RESOURCE_NOT_FOUND, `No resource ${uri}`, { uri });
  return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(succeeded(response)) }] };
}

/** The body of a successful response; a refusal becomes the MCP error closest to it. */
function succeeded(response: RestResponse): unknown {
  if (response.status < 400) return response.body;
  const problem = response.body as { detail?: string };
  const code = response.status === 404 || response.status === 400 ? RESOURCE_NOT_FOUND : ErrorCode.InvalidRequest;
  throw new McpError(code, problem.detail ?? `request failed with ${response.status}`, problem);
}
