import { Type, type TInteger } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** The schema of "how many are in each state": one integer per state, every state present. */
export function StateCountsSchema<State extends string>(states: readonly State[], description: string) {
  return Type.Object(Object.fromEntries(states.map((state) => [state, Type.Integer()])) as Record<State, TInteger>, {
    description,
  });
}

/** How many of a flow's runs or a sequence's enrolments are in each state (0 for a state with none). */
export async function countByState<State extends string>(
  db: Kysely<Database>,
  states: readonly State[],
  of: { table: 'flow_runs'; flowId: string } | { table: 'sequence_enrolments'; sequenceId: string },
): Promise<Record<State, number>> {
  const rows =
    of.table === 'flow_runs'
      ? await db
          .selectFrom('flow_runs')
          .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
          .where('flow_id', '=', of.flowId)
          .where('version', '<>', 0) // the builder's try-runs (flows' TRY_VERSION) are nobody's runs
          .groupBy('status')
          .execute()
      : await db
          .selectFrom('sequence_enrolments')
          .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
          .where('sequence_id', '=', of.sequenceId)
          .groupBy('status')
          .execute();
  const counts = new Map(rows.map((row) => [row.status, Number(row.count)]));
  return Object.fromEntries(states.map((state) => [state, counts.get(state) ?? 0])) as Record<State, number>;
}
