import { Type } from '@sinclair/typebox';
import { NullableField, Timestamp, Uuid } from '../http/responses.js';
import { CategoryNoticeSchema } from './template.schema.js';

// What the dashboard's template endpoints answer (docs/dashboard-openapi.yaml).

/** A button as stored: synced templates keep Meta's button types, so the type is any string here. */
const StoredButton = Type.Object({
  type: Type.String(),
  text: Type.String(),
  url: Type.Optional(Type.String()),
  phone_number: Type.Optional(Type.String()),
  otp_type: Type.Optional(Type.String()),
  supported_apps: Type.Optional(
    Type.Array(Type.Object({ package_name: Type.String(), signature_hash: Type.String() })),
  ),
  zero_tap_terms_accepted: Type.Optional(Type.Boolean()),
  flow_id: Type.Optional(Type.String()),
  flow_name: Type.Optional(Type.String()),
  flow_action: Type.Optional(Type.String()),
  navigate_screen: Type.Optional(Type.String()),
});

/** A template with every translation in full (the public API shows one). */
export const TemplateDetail = Type.Object({
  id: Uuid(),
  name: Type.String(),
  category: Type.String(),
  category_notice: NullableField(CategoryNoticeSchema),
  default_language: Type.String({ description: 'The language get-template shows, so the dashboard opens on it' }),
  translations: Type.Array(
    Type.Object({
      language: Type.String(),
      status: Type.String(),
      body: Type.String(),
      header_type: NullableField(Type.String()),
      header_content: Type.String(),
      footer: Type.String(),
      buttons: Type.Array(StoredButton),
      placeholders: Type.Array(Type.String()),
      meta_template_id: NullableField(Type.String()),
      rejection_reason: NullableField(Type.String()),
      quality_score: NullableField(Type.String()),
      examples: Type.Record(Type.String(), Type.String(), { description: 'Sample values by placeholder' }),
      add_security_recommendation: NullableField(Type.Boolean()),
      code_expiration_minutes: NullableField(Type.Integer()),
      library_template_name: NullableField(
        Type.String({ description: 'The Meta Template Library template it came from' }),
      ),
    }),
  ),
  created_at: Timestamp(),
});

/** "Sync from WhatsApp": what was pulled, what Parley could not represent, and what changed. */
export const TemplateSyncResult = Type.Object({
  templates: Type.Integer(),
  translations: Type.Integer(),
  skipped: Type.Array(Type.Object({ name: Type.String(), language: Type.String(), reason: Type.String() })),
  changes: Type.Array(
    Type.Object({
      template_id: Uuid(),
      name: Type.String(),
      language: Type.String(),
      change: Type.Union([Type.Literal('added'), Type.Literal('updated')]),
      previous_status: NullableField(Type.String()),
      status: Type.String(),
    }),
  ),
});
