import type { Generated, Selectable } from 'kysely';
import type { CreatedAt, Environment, JsonDefault, UpdatedAt } from './schema-columns.ts';

// The table of migration 2026_12_07_0501 (issue 44): an account side's brands.

/** A brand's own email words: kind → locale → { subject, body } (mustache templates). */
export type BrandEmailTexts = Record<string, Record<string, { subject: string; body: string }>>;

export interface BrandsTable {
  id: Generated<number>;
  account_id: number;
  environment: Environment;
  name: string;
  /** The cleaned logo (PNG or JPEG; an uploaded SVG is stored rasterised). */
  logo: Buffer | null;
  logo_type: 'image/png' | 'image/jpeg' | null;
  /** `#rrggbb`, checked for contrast when saved. */
  primary_color: string;
  accent_color: string;
  support_email: string | null;
  support_url: string | null;
  legal_footer: string | null;
  from_name: string | null;
  reply_to: string | null;
  from_address: string | null;
  email_texts: JsonDefault<BrandEmailTexts>;
  is_default: Generated<boolean>;
  created_by_user_id: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export type BrandRow = Selectable<BrandsTable>;
