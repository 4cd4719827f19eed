import pg from 'pg';
import { tagHexBound, type BenchTag, type WorkspaceDataset } from './dataset.js';

const BATCH = 10_000;

/**
 * Bulk loading for PostgreSQL: batches of rows sent as one array per column and expanded with
 * unnest(), so each batch is a single statement with 11 parameters. The next batch is built in
 * JavaScript while the server is still inserting the previous one.
 */
export class PostgresSeeder {
  private readonly client: pg.Client;

  constructor(connectionString: string) {
    this.client = new pg.Client({ connectionString });
    // Without a listener a dropped connection crashes the process before the cluster is cleaned up;
    // the failing query rejects anyway.
    this.client.on('error', (error) => console.error(`seeding connection: ${error.message}`));
  }

  async connect(): Promise<void> {
    await this.client.connect();
  }

  async insertContacts(workspaceId: string, data: WorkspaceDataset): Promise<void> {
    const sql = `INSERT INTO contacts (id, workspace_id, phone, name, email, custom_attributes, opted_out_at,
        last_message_at, last_inbound_at, created_at, updated_at)
      SELECT id, $1::uuid, phone, name, email, attrs::jsonb, opted_out_at, last_at, last_at, created_at,
        coalesce(last_at, created_at)
      FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
        $8::timestamptz[], $9::timestamptz[])
        AS t(id, phone, name, email, attrs, opted_out_at, last_at, created_at)`;
    await this.inBatches(data.spec.contacts, (from, to) => {
      const columns: (string | null)[][] = Array.from({ length: 8 }, () => []);
      for (let i = from; i < to; i++) {
        const c = data.contact(i);
        const row = [c.id, c.phone, c.name, c.email, c.customAttributes, c.optedOutAt, c.lastMessageAt, c.createdAt];
        row.forEach((value, column) => columns[column]!.push(value));
      }
      return () => this.client.query(sql, [workspaceId, ...columns]);
    });
  }

  async insertMessages(workspaceId: string, data: WorkspaceDataset): Promise<void> {
    const sql = `INSERT INTO messages (id, workspace_id, contact_id, direction, type, content, status,
        provider_message_id, error, feed_record, created_at, updated_at)
      SELECT id, $1::uuid, contact_id, 'inbound', type, content::jsonb, 'received', wamid, NULL, feed_record,
        created_at, created_at
      FROM unnest($2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
        AS t(id, contact_id, type, content, wamid, feed_record, created_at)`;
    await this.inBatches(data.spec.messages, (from, to) => {
      const columns: string[][] = Array.from({ length: 7 }, () => []);
      for (let i = from; i < to; i++) {
        const m = data.message(i);
        const row = [m.id, m.contactId, m.type, m.content, m.providerMessageId, m.feedRecord, m.createdAt];
        row.forEach((value, column) => columns[column]!.push(value));
      }
      return () => this.client.query(sql, [workspaceId, ...columns]);
    });
  }

  /**
   * Runs `build` for each batch of row indexes; the query it returns is started at once and only
   * awaited after the next batch is built, overlapping row generation with insertion.
   */
  private async inBatches(total: number, build: (from: number, to: number) => () => Promise<unknown>): Promise<void> {
    let pending: Promise<unknown> = Promise.resolve();
    for (let from = 0; from < total; from += BATCH) {
      const send = build(from, Math.min(total, from + BATCH));
      await pending;
      pending = send();
    }
    await pending;
  }

  /** Creates `tag` and gives it to about `tag.share` of the workspace's contacts (dataset.ts: tagHexBound). */
  async tagContacts(workspaceId: string, tag: BenchTag): Promise<void> {
    await this.client.query(
      `WITH tag AS (
         INSERT INTO tags (id, workspace_id, name, name_key, created_at)
         VALUES (gen_random_uuid(), $1, $2, lower($2), now()) RETURNING id)
       INSERT INTO contact_tags (contact_id, tag_id, created_at, last_message_at)
         SELECT c.id, tag.id, c.created_at, c.last_message_at FROM contacts c, tag
         WHERE c.workspace_id = $1 AND substr(c.id::text, 34, 3) < $3`,
      [workspaceId, tag.name, tagHexBound(tag.share)],
    );
  }

  /** Contacts of the workspace whose name, phone or email contains `needle` (any case). */
  async countMatches(workspaceId: string, needle: string): Promise<number> {
    const result = await this.client.query<{ n: string }>(
      `SELECT count(*) AS n FROM contacts WHERE workspace_id = $1
         AND (strpos(lower(name), $2) > 0 OR strpos(phone, $2) > 0 OR strpos(lower(email), $2) > 0)`,
      [workspaceId, needle],
    );
    return Number(result.rows[0]?.n);
  }

  async version(): Promise<string> {
    const result = await this.client.query<{ v: string }>(`SELECT current_setting('server_version') AS v`);
    return `PostgreSQL ${result.rows[0]?.v.split(' ')[0] ?? '?'}`;
  }

  /** Planner statistics and a vacuum (visibility map for index-only scans) before measuring. */
  async finish(): Promise<void> {
    await this.client.query('VACUUM ANALYZE');
    await this.client.end();
  }
}
