import type { Caller } from '../shared/context.js';
import type { Deps } from '../db/deps.js';
import { errors } from '../shared/errors.js';
import { formatTimestamp, toStoredTimestamp } from '../shared/time.js';
import { quickReplyProblems } from './quick-reply.problems.js';
import { quickReplyRepository, type QuickReplyRow } from './quick-reply.repository.js';
import {
  QUICK_REPLIES_MAX,
  type CreateQuickReplyInput,
  type QuickReply,
  type UpdateQuickReplyInput,
} from './quick-reply.schema.js';

const SHORTCUT = /^[a-z0-9_-]{1,32}$/;

const present = (row: QuickReplyRow): QuickReply => ({
  id: row.id,
  shortcut: row.shortcut,
  body: row.body,
  created_at: formatTimestamp(row.created_at),
  updated_at: formatTimestamp(row.updated_at),
});

/** A shortcut as stored: without its `/`, lower case; anything else a person can read as the problem. */
function shortcutOf(value: string): string {
  const shortcut = value.trim().replace(/^\//, '').toLowerCase();
  if (!SHORTCUT.test(shortcut)) {
    throw errors.invalid(quickReplyProblems.problem('shortcut', 'shortcut_format'));
  }
  return shortcut;
}

function bodyOf(value: string): string {
  if (!value.trim()) throw errors.invalid(quickReplyProblems.problem('body', 'body_empty'));
  return value;
}

/** A workspace's quick replies: saved answers staff insert in the composer with `/shortcut`. */
export function createQuickReplyService({ db, clock, newId }: Deps) {
  const repository = () => quickReplyRepository(db);
  const now = () => toStoredTimestamp(clock.now());

  async function found(caller: Caller, id: string): Promise<QuickReplyRow> {
    const row = await repository().find(caller.workspaceId, id);
    if (!row) throw errors.notFound('quick reply', 'quick_reply_id');
    return row;
  }

  async function checkFree(caller: Caller, shortcut: string, ownId: string | null): Promise<void> {
    const taken = await repository().byShortcut(caller.workspaceId, shortcut);
    if (taken && taken.id !== ownId)
      throw errors.taken(quickReplyProblems.problem('shortcut', 'shortcut_taken', { shortcut }));
  }

  return {
    async list(caller: Caller, input: { query?: string | undefined }): Promise<QuickReply[]> {
      const query = input.query?.trim().toLowerCase() || undefined;
      return (await repository().list(caller.workspaceId, query, QUICK_REPLIES_MAX)).map(present);
    },

    async create(caller: Caller, input: CreateQuickReplyInput): Promise<QuickReply> {
      const shortcut = shortcutOf(input.shortcut);
      const body = bodyOf(input.body);
      await checkFree(caller, shortcut, null);
      if ((await repository().count(caller.workspaceId)) >= QUICK_REPLIES_MAX) {
        throw errors.conflict(`A workspace keeps at most ${QUICK_REPLIES_MAX} quick replies; delete one first`);
      }
      const at = now();
      const row = { id: newId(), workspace_id: caller.workspaceId, shortcut, body, created_at: at, updated_at: at };
      await repository().insert(row);
      return present(row);
    },

    /** Fields not given keep their value. */
    async update(caller: Caller, input: UpdateQuickReplyInput): Promise<QuickReply> {
      const row = await found(caller, input.quick_reply_id);
      const shortcut = input.shortcut === undefined ? row.shortcut : shortcutOf(input.shortcut);
      const body = input.body === undefined ? row.body : bodyOf(input.body);
      await checkFree(caller, shortcut, row.id);
      const fields = { shortcut, body, updated_at: now() };
      await repository().update(caller.workspaceId, row.id, fields);
      return present({ ...row, ...fields });
    },

    /** Returns the quick reply as it was. */
    async delete(caller: Caller, input: { quick_reply_id: string }): Promise<QuickReply> {
      const row = await found(caller, input.quick_reply_id);
      await repository().delete(caller.workspaceId, row.id);
      return present(row);
    },
  };
}

export type QuickReplyService = ReturnType<typeof createQuickReplyService>;
