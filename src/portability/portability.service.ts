import { Value } from '@sinclair/typebox/value';
import type { ContactService } from '../contacts/contact.service.js';
import { parseEmail, parsePhone } from '../contacts/contact.input.js';
import { contactRepository } from '../contacts/contact.repository.js';
import type { Caller, Deps } from '../shared/context.js';
import { AppError, errors, type FieldError } from '../shared/errors.js';
import { tagRepository } from '../tags/tag.repository.js';
import type { TemplateService } from '../templates/template.service.js';
import { WorkspaceDataSchema, type WorkspaceData } from './workspace-data.schema.js';

export interface ImportSummary {
  tags: number;
  templates: number;
  contacts: { created: number; updated: number };
}

/** Checks a document against the workspace-data schema and Parley's rules; every problem names its path. */
export function validateWorkspaceData(document: unknown): WorkspaceData {
  const problems: FieldError[] = [...Value.Errors(WorkspaceDataSchema, document)]
    .slice(0, 20)
    .map((e) => ({ field: e.path || '/', message: e.message }));
  if (problems.length > 0) throw errors.validationMany(problems);
  const data = document as WorkspaceData;
  data.contacts?.forEach((contact, i) => {
    try {
      parsePhone(contact.phone, `/contacts/${i}/phone`);
      if (contact.email !== undefined) parseEmail(contact.email, `/contacts/${i}/email`);
    } catch (error) {
      if (error instanceof AppError) problems.push(...error.fieldErrors);
    }
  });
  if (problems.length > 0) throw errors.validationMany(problems.slice(0, 20));
  return data;
}

/** `parley import` / `parley export`: the workspace as one JSON document, for set-up and backup. */
export function createPortabilityService(deps: Deps, contacts: ContactService, templates: TemplateService) {
  const { db, clock, newId } = deps;
  return {
    /** Upserts everything in the document (validated first, so a bad file changes nothing). */
    async import(caller: Caller, document: unknown): Promise<ImportSummary> {
      const data = validateWorkspaceData(document);
      const now = clock.now().toISOString();
      const tagNames = (data.tags ?? []).map((t) => t.name);
      await tagRepository(db).ensure(caller.workspaceId, tagNames, newId, now);
      for (const template of data.templates ?? []) await templates.upsert(caller, template);
      const summary: ImportSummary = {
        tags: tagNames.length,
        templates: data.templates?.length ?? 0,
        contacts: { created: 0, updated: 0 },
      };
      for (const entry of data.contacts ?? []) {
        const { contact, created } = await contacts.create(caller, {
          phone: entry.phone,
          ...(entry.name !== undefined && { name: entry.name }),
          ...(entry.email !== undefined && { email: entry.email }),
          ...(entry.tags && { tags: entry.tags }),
          ...(entry.custom_attributes && { metadata: entry.custom_attributes }),
        });
        if (entry.opted_out !== undefined) await contacts.setOptedOut(caller, contact.id, entry.opted_out);
        summary.contacts[created ? 'created' : 'updated'] += 1;
      }
      return summary;
    },

    /** The workspace as a document that `import` accepts. */
    async export(caller: Caller): Promise<WorkspaceData> {
      const tags = await tagRepository(db).list(caller.workspaceId, undefined, Number.MAX_SAFE_INTEGER);
      const exported = await templates.exportAll(caller);
      const rows = await db
        .selectFrom('contacts')
        .select(['id', 'phone', 'name', 'email', 'custom_attributes', 'opted_out_at'])
        .where('workspace_id', '=', caller.workspaceId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const contactTags = await contactRepository(db).tagNames(rows.map((r) => r.id));
      return {
        version: 1,
        tags: tags.map((t) => ({ name: t.name })),
        templates: exported.map(({ template, translations }) => ({
          name: template.name,
          category: template.category as 'MARKETING',
          translations: translations.map((t) => ({
            language: t.language,
            status: t.status as 'APPROVED',
            body: t.body,
            header_type: t.header_type as 'TEXT' | null,
            header_content: t.header_content,
            footer: t.footer,
            buttons: JSON.parse(t.buttons) as [],
          })),
        })),
        contacts: rows.map((r) => ({
          phone: r.phone,
          ...(r.name !== null && { name: r.name }),
          ...(r.email !== null && { email: r.email }),
          tags: contactTags.get(r.id) ?? [],
          custom_attributes: JSON.parse(r.custom_attributes) as Record<string, unknown>,
          opted_out: r.opted_out_at !== null,
        })),
      };
    },
  };
}

export type PortabilityService = ReturnType<typeof createPortabilityService>;
