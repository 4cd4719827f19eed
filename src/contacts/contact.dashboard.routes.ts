import { Type } from '@sinclair/typebox';
import type { CountryCode } from 'libphonenumber-js/max';
import { answerWithProgress, wantsProgress } from '../http/progress-stream.js';
import { sessionUserOf, type Api } from '../http/types.js';
import type { ContactDashboardService } from './contact.dashboard.js';
import { contactsCsv } from './contact.export.js';
import type { ContactImportService } from './contact.import.js';
import type { ContactService } from './contact.service.js';
import { ContactSchema, CreateContactBody } from './contact.schema.js';
import {
  ContactActivity,
  ContactTablePage,
  ImportResult,
  PhoneCountries,
  TagsChanged,
} from './contact.dashboard.schema.js';
import { Uuid } from '../http/responses.js';
import { errors } from '../shared/errors.js';
import { isPhoneCountry, phoneCountries } from '../shared/phone.js';
import { contactProblems } from './contact.problems.js';

const config = { access: 'session' as const };
/** Reading contacts is open to every role; changing them, importing and exporting take `contacts`. */
const writes = { access: 'session' as const, permission: 'contacts' as const };
/** A 20 MB CSV grows a little as a JSON string (quotes and backslashes are escaped). */
const IMPORT_BODY_LIMIT = 25 * 1024 * 1024;
const Filter = {
  query: Type.Optional(Type.String({ maxLength: 200 })),
  tag: Type.Optional(Type.String({ maxLength: 64 })),
};

/** The import's default country, or a 400 for a code libphonenumber does not know. */
function defaultCountryOf(code: string | undefined): CountryCode | undefined {
  if (!code) return undefined;
  if (!isPhoneCountry(code)) throw errors.invalid(contactProblems.problem('default_country', 'not_a_country_code'));
  return code;
}

/** The contacts area of the dashboard: the paged table, bulk tagging, CSV import and export, activity. */
export function registerContactDashboardRoutes(
  app: Api,
  services: { contacts: ContactService; dashboard: ContactDashboardService; imports: ContactImportService },
): void {
  const { contacts, dashboard, imports } = services;

  app.get(
    '/api/dashboard/contacts',
    {
      config,
      schema: {
        response: { 200: ContactTablePage },
        querystring: Type.Object({
          ...Filter,
          after: Type.Optional(Type.String({ maxLength: 200 })),
          limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: '1 to 500; 100 by default' })),
        }),
      },
    },
    async (request) => {
      const { query, tag, after, limit } = request.query;
      const size = Math.min(Number(limit ?? 100), 500); // query strings are not coerced: the pattern keeps it a number
      return dashboard.page(sessionUserOf(request), { query, tag }, after || undefined, size);
    },
  );

  // Add contact: create-contact's fields, but a phone that is already a contact's is a 409 (create-contact upserts).
  app.post(
    '/api/dashboard/contacts',
    {
      config: { ...config, permission: 'contacts' },
      schema: { body: CreateContactBody, response: { 201: Type.Ref(ContactSchema) } },
    },
    async (request, reply) => reply.code(201).send(await contacts.add(sessionUserOf(request), request.body)),
  );

  app.post(
    '/api/dashboard/contacts/bulk-tag',
    {
      config: writes,
      schema: {
        response: { 200: TagsChanged },
        body: Type.Object({
          contact_ids: Type.Array(Uuid(), { minItems: 1, maxItems: 1000 }),
          tag: Type.String({ minLength: 1, maxLength: 64 }),
          action: Type.Union([Type.Literal('add'), Type.Literal('remove')]),
        }),
      },
    },
    async (request) => {
      const { contact_ids, tag, action } = request.body;
      return { changed: await contacts.tagMany(sessionUserOf(request), contact_ids, tag, action) };
    },
  );

  app.post(
    '/api/dashboard/contacts/import',
    {
      config: writes,
      bodyLimit: IMPORT_BODY_LIMIT,
      schema: {
        // With Accept: application/x-ndjson the answer is progress lines ending in `{"result": …}` instead.
        response: { 200: ImportResult },
        body: Type.Object({
          csv: Type.String({ minLength: 1, maxLength: 20 * 1024 * 1024 }),
          columns: Type.Array(Type.String({ maxLength: 80 }), { minItems: 1, maxItems: 200 }),
          has_header: Type.Optional(Type.Boolean({ default: true })),
          default_country: Type.Optional(Type.String({ maxLength: 2, description: 'ISO 3166-1 alpha-2, e.g. GB' })),
          dry_run: Type.Optional(Type.Boolean({ description: 'Check every row and count, writing nothing' })),
        }),
      },
    },
    async (request, reply) => {
      const { csv, columns, has_header, default_country, dry_run } = request.body;
      const caller = sessionUserOf(request);
      const options = {
        columns,
        hasHeader: has_header ?? true,
        defaultCountry: defaultCountryOf(default_country),
        dryRun: dry_run ?? false,
      };
      // The dashboard asks to hear the rows read as the batches are written, for its progress bar.
      if (!wantsProgress(request)) return imports.importCsv(caller, csv, options);
      return answerWithProgress(request, reply, (onProgress: (progress: { rows_read: number }) => void) =>
        imports.importCsv(caller, csv, options, (rowsRead) => onProgress({ rows_read: rowsRead })),
      );
    },
  );

  // The import's default-country choices; the dashboard names them in the viewer's language.
  app.get('/api/dashboard/phone-countries', { config, schema: { response: { 200: PhoneCountries } } }, () =>
    Promise.resolve(phoneCountries()),
  );

  app.get(
    '/api/dashboard/contacts/export.csv',
    { config: writes, schema: { querystring: Type.Object(Filter) } },
    async (request, reply) => {
      const { query, tag } = request.query;
      const caller = sessionUserOf(request);
      const attributeKeys = await dashboard.attributeKeys(caller, { query, tag });
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="contacts.csv"`)
        .header('cache-control', 'no-store')
        .send(contactsCsv(dashboard.all(caller, { query, tag }), attributeKeys));
    },
  );

  app.get(
    '/api/dashboard/contacts/:id/activity',
    { config, schema: { params: Type.Object({ id: Uuid() }), response: { 200: ContactActivity } } },
    async (request) => dashboard.activity(sessionUserOf(request), request.params.id),
  );
}
