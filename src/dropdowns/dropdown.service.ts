import { sql } from 'kysely';
import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { type TemplateService, TEMPLATE_LIST_CAP } from '../templates/index.js';

export interface Choice {
  id: string;
  label: string;
}

/** Pick-lists for integration tools: `{id, label}` pairs. */
export function createDropdownService({ db }: Deps, templates: TemplateService) {
  const named = (table: 'sequences' | 'flows', caller: Caller): Promise<Choice[]> =>
    db
      .selectFrom(table)
      .select(['id', 'name as label'])
      .where('workspace_id', '=', caller.workspaceId)
      // Alphabetical as people read it: "apple" before "Zebra" (plain ORDER BY puts capitals first).
      .orderBy(sql`lower(name)`)
      .orderBy('name')
      .orderBy('id')
      .limit(TEMPLATE_LIST_CAP)
      .execute();

  return {
    /** Templates labelled with their name and the languages they can be sent in. */
    async templates(caller: Caller): Promise<Choice[]> {
      const list = await templates.list(caller, {});
      return list.map((t) => ({ id: t.id, label: `${t.name} (${t.languages.join(', ')})` }));
    },
    sequences: (caller: Caller) => named('sequences', caller),
    flows: (caller: Caller) => named('flows', caller),
    /**
     * Every variable of the template, as send-template-message's `variables` keys: the body's
     * `{id: "1", label: "{{1}}"}` (or a name), then e.g. `header_1`, `button_0_1`, `button_1_coupon_code`.
     */
    async templateVariables(caller: Caller, templateId: string): Promise<Choice[]> {
      return (await templates.get(caller, templateId)).variables;
    },
  };
}

export type DropdownService = ReturnType<typeof createDropdownService>;
