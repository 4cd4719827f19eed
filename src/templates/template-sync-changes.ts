import type { Caller } from '../shared/context.js';
import type { TranslationRow } from './template.repository.js';
import type { SyncResult, TemplateSyncService } from './template-sync.js';
import type { TemplateService } from './template.service.js';

/** One translation the sync added or changed; `previous_status` is null for an added one. */
export interface SyncChange {
  template_id: string;
  name: string;
  language: string;
  change: 'added' | 'updated';
  previous_status: string | null;
  status: string;
}

type Snapshot = Map<string, { templateId: string; name: string; row: TranslationRow }>;

/** Runs the sync and tells what it changed, so the dashboard can show more than counts. */
export async function syncWithChanges(
  templates: TemplateService,
  templateSync: TemplateSyncService,
  caller: Caller,
): Promise<SyncResult & { changes: SyncChange[] }> {
  const before = await snapshot(templates, caller);
  const result = await templateSync.sync(caller);
  const after = await snapshot(templates, caller);
  const changes: SyncChange[] = [];
  for (const [key, now] of after) {
    const old = before.get(key)?.row;
    if (old && sameContent(old, now.row)) continue;
    changes.push({
      template_id: now.templateId,
      name: now.name,
      language: now.row.language,
      change: old ? 'updated' : 'added',
      previous_status: old?.status ?? null,
      status: now.row.status,
    });
  }
  return { ...result, changes };
}

async function snapshot(templates: TemplateService, caller: Caller): Promise<Snapshot> {
  const all = await templates.exportAll(caller);
  const map: Snapshot = new Map();
  for (const { template, translations } of all) {
    for (const row of translations)
      map.set(`${template.name}\u0000${row.language}`, { templateId: template.id, name: template.name, row });
  }
  return map;
}

function sameContent(a: TranslationRow, b: TranslationRow): boolean {
  const fields = [
    'status',
    'body',
    'header_type',
    'header_content',
    'footer',
    'buttons',
    'parameter_format',
    'other_components',
  ] as const;
  return fields.every((field) => a[field] === b[field]);
}
