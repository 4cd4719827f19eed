import { Type } from '@sinclair/typebox';
import { listingResponse, pageQuery, pageRequest, sendListing } from '../http/pagination.js';
import { actionErrors } from '../http/responses.js';
import { principalOf, type Api } from '../http/types.js';
import {
  ContactList,
  ContactPage,
  ContactSchema,
  CreateContactBody,
  GetContactBody,
  SearchContactsBody,
  TagContactBody,
  UpdateContactBody,
} from './contact.schema.js';
import { SEARCH_LIMIT, type ContactService } from './contact.service.js';

const tags = ['Contacts'];
const contact = Type.Ref(ContactSchema);

/** The contact actions of spec §4. */
export function registerContactRoutes(app: Api, contacts: ContactService): void {
  app.addSchema(ContactSchema);
  app.addSchema(ContactPage);

  app.post(
    '/api/v1/actions/create-contact',
    {
      config: { access: 'write', permission: 'contacts' },
      schema: {
        operationId: 'createContact',
        tags,
        summary: 'Create or update a contact (upsert by phone)',
        description:
          'Creates the contact, or updates the existing contact with the same phone (name and email when given, metadata merged, tags added). 201 when created, 200 when it existed.',
        body: CreateContactBody,
        response: { 200: contact, 201: contact, ...actionErrors() },
      },
    },
    async (request, reply) => {
      const { contact: result, created } = await contacts.create(principalOf(request), request.body);
      return reply.code(created ? 201 : 200).send(result);
    },
  );

  app.post(
    '/api/v1/actions/update-contact',
    {
      config: { access: 'write', permission: 'contacts' },
      schema: {
        operationId: 'updateContact',
        tags,
        summary: 'Update a contact found by id or phone',
        body: UpdateContactBody,
        response: { 200: contact, ...actionErrors(404) },
      },
    },
    async (request) => contacts.update(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/get-contact',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'getContact',
        tags,
        summary: 'Fetch one contact by id, phone or email',
        description: 'Emails are not unique: when several contacts share one, the earliest created is returned.',
        body: GetContactBody,
        response: { 200: contact, ...actionErrors(404) },
      },
    },
    async (request) => contacts.get(principalOf(request), request.body),
  );

  app.post(
    '/api/v1/actions/search-contacts',
    {
      config: { access: 'read' },
      schema: {
        operationId: 'searchContacts',
        tags,
        summary: 'Search contacts',
        description: `\`query\` is a case-insensitive substring of name, phone or email (a phone-like query matches on its digits); \`tag\` and \`email\` filter exactly. Filters combine with AND; an empty string is no filter. At most ${SEARCH_LIMIT} contacts, latest message first, never-messaged contacts last. With \`paginate=cursor\`, every matching contact is reachable page by page, in creation (id) order, so contacts added or updated meanwhile neither repeat nor hide others; send the same filters with every page.`,
        querystring: Type.Object(pageQuery(SEARCH_LIMIT)),
        body: SearchContactsBody,
        response: { 200: listingResponse(ContactList, ContactPage), ...actionErrors() },
      },
    },
    async (request, reply) => {
      const page = pageRequest(request.query, SEARCH_LIMIT);
      const caller = principalOf(request);
      const listing = page
        ? await contacts.searchPage(caller, request.body, page)
        : await contacts.search(caller, request.body);
      return sendListing(reply, listing, { list: ContactList, page: ContactPage });
    },
  );

  app.post(
    '/api/v1/actions/add-tag',
    {
      config: { access: 'write', permission: 'contacts' },
      schema: {
        operationId: 'addTag',
        tags,
        summary: 'Add a tag to a contact',
        description: 'An unknown tag is created. Returns the contact.',
        body: TagContactBody,
        response: { 200: contact, ...actionErrors(404) },
      },
    },
    async (request) => contacts.addTag(principalOf(request), request.body, request.body.tag),
  );

  app.post(
    '/api/v1/actions/remove-tag',
    {
      config: { access: 'write', permission: 'contacts' },
      schema: {
        operationId: 'removeTag',
        tags,
        summary: 'Remove a tag from a contact',
        description: 'Removing a tag the contact does not carry changes nothing. Returns the contact.',
        body: TagContactBody,
        response: { 200: contact, ...actionErrors(404) },
      },
    },
    async (request) => contacts.removeTag(principalOf(request), request.body, request.body.tag),
  );
}
