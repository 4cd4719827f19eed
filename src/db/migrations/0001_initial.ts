import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';
import type { Database } from '../schema.js';
import { columnTypes } from './column-types.js';

/** Workspaces, identity, contacts and tags, templates, messages and the automation records. */
export async function up(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);

  await db.schema
    .createTable('workspaces')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('poll_interval_seconds', 'integer', (c) => c.notNull().defaultTo(30))
    .addColumn('rate_limit_per_minute', 'integer', (c) => c.notNull().defaultTo(120))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', t.id, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_prefix', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('last_used_at', t.timestamp)
    .addColumn('revoked_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('api_tokens_workspace').on('api_tokens').columns(['workspace_id']).execute();

  await createContacts(db, dialect);

  await db.schema
    .createTable('tags')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('tags_workspace_name', ['workspace_id', 'name_key'])
    .execute();

  await db.schema
    .createTable('contact_tags')
    .addColumn('contact_id', t.id, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('tag_id', t.id, (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('contact_tags_pk', ['contact_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('contact_tags_tag').on('contact_tags').columns(['tag_id', 'contact_id']).execute();

  await db.schema
    .createTable('templates')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('templates_workspace_name', ['workspace_id', 'name'])
    .execute();

  await db.schema
    .createTable('template_translations')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('template_id', t.id, (c) => c.notNull().references('templates.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('header_type', 'text')
    .addColumn('header_content', 'text')
    .addColumn('footer', 'text')
    .addColumn('buttons', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('template_translations_language', ['template_id', 'language'])
    .execute();

  await createMessages(db, dialect);
  await createAutomationRecords(db, dialect);

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['workspace_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').columns(['created_at']).execute();
}

/**
 * Contacts and their substring search index: FTS5 trigram in SQLite (over an integer rowid
 * that VACUUM cannot renumber), a pg_trgm GIN index over one lower-cased search column in PostgreSQL.
 */
async function createContacts(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  let table = db.schema.createTable('contacts');
  table =
    dialect === 'sqlite'
      ? table.addColumn('seq', 'integer', (c) => c.primaryKey()).addColumn('id', t.id, (c) => c.notNull().unique())
      : table.addColumn('id', t.id, (c) => c.primaryKey());
  await table
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('email', 'text')
    .addColumn('custom_attributes', t.json, (c) => c.notNull())
    .addColumn('opted_out_at', t.timestamp)
    .addColumn('last_message_at', t.timestamp)
    .addColumn('last_inbound_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addUniqueConstraint('contacts_workspace_phone', ['workspace_id', 'phone'])
    .execute();
  // Newest conversation first, never-messaged last: SQLite's DESC already puts NULLs last.
  const recency = dialect === 'sqlite' ? sql`last_message_at DESC` : sql`last_message_at DESC NULLS LAST`;
  await sql`CREATE INDEX contacts_recent ON contacts (workspace_id, ${recency}, id DESC)`.execute(db);
  await sql`CREATE INDEX contacts_email ON contacts (workspace_id, lower(email))`.execute(db);

  if (dialect === 'sqlite') {
    await sql`CREATE VIRTUAL TABLE contacts_search USING fts5(
      name, phone, email, content='contacts', content_rowid='seq', tokenize='trigram')`.execute(db);
    await sql`CREATE TRIGGER contacts_search_insert AFTER INSERT ON contacts BEGIN
      INSERT INTO contacts_search(rowid, name, phone, email) VALUES (new.seq, new.name, new.phone, new.email);
    END`.execute(db);
    await sql`CREATE TRIGGER contacts_search_delete AFTER DELETE ON contacts BEGIN
      INSERT INTO contacts_search(contacts_search, rowid, name, phone, email)
        VALUES ('delete', old.seq, old.name, old.phone, old.email);
    END`.execute(db);
    await sql`CREATE TRIGGER contacts_search_update AFTER UPDATE OF name, phone, email ON contacts BEGIN
      INSERT INTO contacts_search(contacts_search, rowid, name, phone, email)
        VALUES ('delete', old.seq, old.name, old.phone, old.email);
      INSERT INTO contacts_search(rowid, name, phone, email) VALUES (new.seq, new.name, new.phone, new.email);
    END`.execute(db);
  } else {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`ALTER TABLE contacts ADD COLUMN search_text text GENERATED ALWAYS AS (
      lower(coalesce(name, '') || chr(31) || phone || chr(31) || coalesce(email, ''))) STORED`.execute(db);
    await sql`CREATE INDEX contacts_search ON contacts USING gin (search_text gin_trgm_ops)`.execute(db);
  }
}

async function createMessages(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  await db.schema
    .createTable('messages')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('contact_id', t.id, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('content', t.json, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('provider_message_id', 'text')
    .addColumn('error', t.json)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  // The trigger feed reads the newest inbound messages, optionally of one type.
  await sql`CREATE INDEX messages_feed ON messages (workspace_id, direction, created_at DESC, id DESC)`.execute(db);
  await sql`CREATE INDEX messages_feed_type ON messages (workspace_id, direction, type, created_at DESC, id DESC)`.execute(
    db,
  );
  await sql`CREATE INDEX messages_contact ON messages (contact_id, created_at DESC)`.execute(db);
  await sql`CREATE UNIQUE INDEX messages_provider_id ON messages (workspace_id, provider_message_id)`.execute(db);
}

async function createAutomationRecords(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const t = columnTypes(dialect);
  for (const name of ['sequences', 'flows'] as const) {
    await db.schema
      .createTable(name)
      .addColumn('id', t.id, (c) => c.primaryKey())
      .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('definition', t.json, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .addUniqueConstraint(`${name}_workspace_name`, ['workspace_id', 'name'])
      .execute();
  }
  const runs = [
    { table: 'sequence_enrolments', parent: 'sequence_id', parentTable: 'sequences' },
    { table: 'flow_runs', parent: 'flow_id', parentTable: 'flows' },
  ] as const;
  for (const { table, parent, parentTable } of runs) {
    await db.schema
      .createTable(table)
      .addColumn('id', t.id, (c) => c.primaryKey())
      .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
      .addColumn(parent, t.id, (c) => c.notNull().references(`${parentTable}.id`).onDelete('cascade'))
      .addColumn('contact_id', t.id, (c) => c.notNull().references('contacts.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('context', t.json, (c) => c.notNull())
      .addColumn('created_at', t.timestamp, (c) => c.notNull())
      .addColumn('updated_at', t.timestamp, (c) => c.notNull())
      .execute();
    await sql`CREATE INDEX ${sql.raw(`${table}_feed`)} ON ${sql.table(table)} (workspace_id, created_at DESC, id DESC)`.execute(
      db,
    );
    await sql`CREATE INDEX ${sql.raw(`${table}_feed_parent`)} ON ${sql.table(table)} (workspace_id, ${sql.ref(parent)}, created_at DESC, id DESC)`.execute(
      db,
    );
  }

  await db.schema
    .createTable('campaigns')
    .addColumn('id', t.id, (c) => c.primaryKey())
    .addColumn('workspace_id', t.id, (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('template_id', t.id, (c) => c.references('templates.id').onDelete('set null'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('audience', t.json, (c) => c.notNull())
    .addColumn('scheduled_at', t.timestamp)
    .addColumn('sent_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX campaigns_sent ON campaigns (workspace_id, sent_at DESC, id DESC)`.execute(db);
}
