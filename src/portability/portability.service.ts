import {
  type BulkContact,
  type ContactBulk,
  parseEmail,
  parseName,
  parsePhone,
  parseTagNames,
  contactRepository,
} from '../contacts/index.js';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { tagRepository } from '../tags/index.js';
import {
  translationOptions,
  type TranslationRow,
  type TemplateInput,
  type TranslationInput,
  type TemplateService,
} from '../templates/index.js';
import type { FlowService } from '../flows/index.js';
import type { KnowledgeService } from '../knowledge/index.js';
import type { ReportService } from '../reports/index.js';
import type { SaveSequenceInput, SequenceService } from '../sequences/index.js';
import { errors } from '../shared/errors.js';
import { automationProblems, withIds, withNames } from './automation-data.js';
import { campaignProblems, planCampaigns, type CampaignPlan } from './campaign-data.js';
import {
  campaignContext,
  exportCampaigns,
  importCampaigns,
  storedCampaigns,
  type CampaignCounts,
} from './campaign-transfer.js';
import type { WorkspaceData } from './workspace-data.schema.js';
import { validateWorkspaceData } from './workspace-data.validation.js';

export interface ImportSummary {
  tags: number;
  templates: number;
  flows: number;
  sequences: number;
  contacts: { created: number; updated: number };
  /** created: new scheduled campaigns; updated: matched ones still scheduled; skipped: history, or already sent. */
  campaigns: CampaignCounts;
  /** created: cards added; skipped: the workspace already had a card from that day. */
  rate_cards: { created: number; skipped: number };
  /** Knowledge sources: created, or updated (one of the same kind and question or title was there). */
  knowledge: { created: number; updated: number };
}

/**
 * A translation as export writes it: every field present, and the stored category, status and
 * header type kept verbatim (typed as the strings they are) — a backup never drops a value it does
 * not recognise; re-importing it names the field instead.
 */
type OptionalExport = 'parameter_format' | 'other_components' | TemplateOption;
type TemplateOption = 'add_security_recommendation' | 'code_expiration_minutes' | 'library_template_name';
export type ExportedTranslation = Omit<Required<TranslationInput>, 'status' | 'header_type' | OptionalExport> & {
  status: string;
  header_type: string | null;
} & Pick<TranslationInput, OptionalExport>;
export type ExportedTemplate = Omit<TemplateInput, 'category' | 'translations'> & {
  category: string;
  translations: ExportedTranslation[];
};
/** What `parley export` prints: the import format (see ExportedTranslation for the one difference). */
export type WorkspaceExport = Omit<WorkspaceData, 'templates'> & { templates: ExportedTemplate[] };

function exportTranslation(t: TranslationRow): ExportedTranslation {
  return {
    language: t.language,
    status: t.status,
    body: t.body,
    header_type: t.header_type,
    header_content: t.header_content,
    footer: t.footer,
    buttons: JSON.parse(t.buttons) as ExportedTranslation['buttons'],
    // Written only when not the default, so a plain template's export reads as before.
    ...(t.parameter_format === 'NAMED' && { parameter_format: 'NAMED' as const }),
    ...(t.other_components !== '[]' && {
      other_components: JSON.parse(t.other_components) as Required<TranslationInput>['other_components'],
    }),
    // Likewise only the options Meta gave (an authentication template's, a library template's name).
    ...Object.fromEntries(Object.entries(translationOptions(t)).filter(([, value]) => value !== null)),
  };
}

/** `parley import` / `parley export`: the workspace as one JSON document, for set-up and backup. */
export function createPortabilityService(
  deps: Deps,
  contacts: ContactBulk,
  templates: TemplateService,
  automation: { sequences: SequenceService; flows: FlowService },
  reports: ReportService,
  knowledge: KnowledgeService,
) {
  const { db, clock, newId } = deps;

  /** Template and flow names → ids (or the reverse), as the workspace has them now. */
  async function references(workspaceId: string) {
    const of = (table: 'templates' | 'flows') =>
      db.selectFrom(table).select(['id', 'name']).where('workspace_id', '=', workspaceId).execute();
    const [templateRows, flowRows] = await Promise.all([of('templates'), of('flows')]);
    return {
      ids: {
        templates: new Map(templateRows.map((r) => [r.name, r.id])),
        flows: new Map(flowRows.map((r) => [r.name, r.id])),
      },
      names: {
        templates: new Map(templateRows.map((r) => [r.id, r.name])),
        flows: new Map(flowRows.map((r) => [r.id, r.name])),
      },
    };
  }

  /** Flows, then sequences (which may start flows), upserted by name with names resolved to ids. */
  async function importAutomation(caller: Caller, data: WorkspaceData): Promise<void> {
    for (const entry of data.flows ?? []) {
      const { ids } = await references(caller.workspaceId);
      const definition = withIds(entry.definition, ids);
      await automation.flows.save(caller, { ...existing(ids.flows, entry.name), name: entry.name, definition });
    }
    const { ids } = await references(caller.workspaceId);
    const sequenceIds = await db
      .selectFrom('sequences')
      .select(['id', 'name'])
      .where('workspace_id', '=', caller.workspaceId)
      .execute();
    const byName = new Map(sequenceIds.map((r) => [r.name, r.id]));
    for (const entry of data.sequences ?? []) {
      const definition = withIds(entry.definition, ids) as Omit<SaveSequenceInput, 'name' | 'id'>;
      await automation.sequences.save(caller, { ...existing(byName, entry.name), name: entry.name, ...definition });
    }
  }

  /**
   * Every reference the document makes (templates, flows, tags, contacts) checked against the
   * workspace and the document itself; returns what to do with each campaign.
   */
  async function checkReferences(caller: Caller, data: WorkspaceData): Promise<CampaignPlan[]> {
    const { ids } = await references(caller.workspaceId);
    const known = {
      templates: new Set([...ids.templates.keys(), ...(data.templates ?? []).map((t) => t.name)]),
      flows: new Set([...ids.flows.keys(), ...(data.flows ?? []).map((f) => f.name)]),
    };
    const plans = planCampaigns(data.campaigns ?? [], await storedCampaigns(db, caller.workspaceId));
    const context = await campaignContext(db, caller.workspaceId, data, plans);
    const problems = [
      ...automationProblems(data, known),
      ...campaignProblems(plans, context),
      ...(await reports.rateCardProblems(caller, data.rate_cards ?? [], '/rate_cards')),
      ...(data.knowledge ? await knowledge.restoreProblems(caller, data.knowledge, '/knowledge') : []),
    ];
    if (problems.length > 0) throw errors.invalid(...problems.slice(0, 20));
    return plans;
  }

  /** Contacts upserted by phone, through the bulk path; a phone the document repeats is applied in order. */
  async function importContacts(caller: Caller, data: WorkspaceData): Promise<ImportSummary['contacts']> {
    const rows: BulkContact[] = (data.contacts ?? []).map((entry) => ({
      phone: parsePhone(entry.phone),
      ...(entry.name !== undefined && { name: parseName(entry.name) }),
      ...(entry.email !== undefined && { email: parseEmail(entry.email) }),
      tags: entry.tags ? parseTagNames(entry.tags) : [],
      attributes: entry.custom_attributes ?? {},
      // Only a change is written, so re-importing a backup keeps the original opt-out time.
      ...(entry.opted_out !== undefined && { optedOut: entry.opted_out }),
    }));
    let created = 0;
    for (const round of distinctPhoneRounds(rows)) created += await contacts.upsert(caller, round);
    return { created, updated: rows.length - created };
  }

  return {
    /** Upserts everything in the document (validated as a whole first, so a bad file changes nothing). */
    async import(caller: Caller, document: unknown): Promise<ImportSummary> {
      const data = validateWorkspaceData(document);
      const plans = await checkReferences(caller, data);
      const now = clock.now().toISOString();
      const tagNames = parseTagNames((data.tags ?? []).map((t) => t.name));
      await tagRepository(db).ensure(caller.workspaceId, tagNames, newId, now);
      for (const template of data.templates ?? []) await templates.upsert(caller, template);
      // After the templates, which may be one of its sources; chunks are cut and indexed as it goes.
      const knowledgeCounts = data.knowledge
        ? await knowledge.restore(caller, data.knowledge)
        : { created: 0, updated: 0 };
      await importAutomation(caller, data);
      const contactCounts = await importContacts(caller, data);
      // Last: campaigns name the templates, tags and contacts written above.
      return {
        tags: tagNames.length,
        templates: data.templates?.length ?? 0,
        flows: data.flows?.length ?? 0,
        sequences: data.sequences?.length ?? 0,
        contacts: contactCounts,
        campaigns: await importCampaigns(deps, caller.workspaceId, plans),
        rate_cards: await reports.restoreRateCards(caller, data.rate_cards ?? []),
        knowledge: knowledgeCounts,
      };
    },

    /** The workspace as a document that `import` accepts. */
    async export(caller: Caller): Promise<WorkspaceExport> {
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
      const { names } = await references(caller.workspaceId);
      const automationOf = async (table: 'sequences' | 'flows') =>
        (
          await db
            .selectFrom(table)
            .select(['name', 'definition'])
            .where('workspace_id', '=', caller.workspaceId)
            .orderBy('created_at')
            .execute()
        ).map((r) => ({
          name: r.name,
          definition: withNames(JSON.parse(r.definition) as Record<string, unknown>, names),
        }));
      return {
        version: 1,
        tags: tags.map((t) => ({ name: t.name })),
        templates: exported.map(({ template, translations }) => ({
          name: template.name,
          category: template.category,
          translations: translations.map(exportTranslation),
        })),
        contacts: rows.map((r) => ({
          phone: r.phone,
          ...(r.name !== null && { name: r.name }),
          ...(r.email !== null && { email: r.email }),
          tags: contactTags.get(r.id) ?? [],
          custom_attributes: JSON.parse(r.custom_attributes) as Record<string, unknown>,
          opted_out: r.opted_out_at !== null,
        })),
        flows: await automationOf('flows'),
        sequences: await automationOf('sequences'),
        campaigns: await exportCampaigns(db, caller.workspaceId),
        rate_cards: await reports.exportRateCards(caller),
        // What the team typed or uploaded; not the AI model's settings (a secret key, a deployment's endpoint).
        knowledge: await knowledge.portable(caller),
      };
    },
  };
}

/** The rows in rounds whose phones are distinct (a repeat goes into the round after its earlier row's). */
function distinctPhoneRounds(rows: BulkContact[]): BulkContact[][] {
  const rounds: BulkContact[][] = [];
  const seen = new Map<string, number>();
  for (const row of rows) {
    const round = seen.get(row.phone) ?? 0;
    seen.set(row.phone, round + 1);
    (rounds[round] ??= []).push(row);
  }
  return rounds;
}

/** `{ id }` of the record with this name, if there is one: import upserts by name. */
function existing(ids: Map<string, string>, name: string): { id?: string } {
  const id = ids.get(name.trim());
  return id ? { id } : {};
}

export type PortabilityService = ReturnType<typeof createPortabilityService>;
